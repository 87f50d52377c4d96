"""Real-looking credentials and look-alikes, built at run time from parts so this
repository never carries a string that trips a secret scanner."""

from __future__ import annotations

import base64


def _join(*parts: str) -> str:
    return "".join(parts)


#: name -> (text holding one credential, the credential itself, the kind the scanner names)
SECRETS: dict[str, tuple[str, str, str]] = {}


def _add(name: str, before: str, secret: str, after: str, kind: str) -> None:
    SECRETS[name] = (before + secret + after, secret, kind)


_add("aws-key-id", "Deploy user key is ", _join("AK", "IA", "IOSFODNN7", "Q3ZXTBA"), " (prod).",
     "AWS Access Key")  # fmt: skip
_add("aws-secret", 'aws_secret_access_key = "',
     _join("wJalrXUtnFEMI/K7MDENG", "/bPxRfiCYzQ8vLm2Tk9"), '"', "AWS Access Key")  # fmt: skip
_add("github", "CI uses ", _join("gh", "p_", "a1B2c3D4e5F6g7H8i9J0", "k1L2m3N4o5P6q7R8"),
     " for releases", "GitHub Token")  # fmt: skip
_add("openai", "OPENAI_API_KEY=",
     _join("sk-", "proj-", "Ab3dEf6hIj9lMn2pQr5t", "T3Blbk", "FJ", "Uv8xYz1bCd4fGh7jKl0n"),
     "", "OpenAI Token")  # fmt: skip
_add("pem", "The deploy key:\n",
     _join("-----BEGIN RSA ", "PRIVATE KEY-----\nMIIEowIBAAKCAQEA7bq3", "\n-----END RSA ",
           "PRIVATE KEY-----"), "\n", "Private Key")  # fmt: skip
_add("url-password", "DB is postgres://admin:", _join("Hx9", "qLp2", "Wv7z"),
     "@db.internal:5432/app", "Basic Auth Credentials")  # fmt: skip
_add("slack", "Bot token: ", _join("xo", "xb-", "123456789012-1234567890123-",
                                   "AbCdEfGhIjKlMnOpQrStUvWx"), "", "Slack Token")  # fmt: skip
_add("slack-webhook", "Alerts go to ",
     _join("https://hooks.", "slack.com/services/", "T0ABCDEF1/B0ABCDEF2/", "Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2"),
     "", "Slack Token")  # fmt: skip

_PNG = base64.b64encode(bytes(range(256)) * 2).decode()

#: name -> text that looks technical but holds no credential
HARMLESS: dict[str, str] = {
    "git-hash": "Fixed in 3f786850e387550fdab836ed7e6dc881de23001b, reverted by 9c1185a5c5e9",
    "uuid": "Tenant 123e4567-e89b-12d3-a456-426614174000 uses the EU region",
    "base64-image": f"Logo for the docs: ![logo](data:image/png;base64,{_PNG})",
    "long-identifier": "AbstractSingletonProxyFactoryBeanConfigurationManagerImplementation "
    "and snake_case_identifier_that_goes_on_for_quite_a_while_in_the_codebase_v2",
    "hex-colours": "Brand colours: #ff00aa, #0f0, #1E90FF and rgba(0,0,0,.5)",
    "sha256": "sha256 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855 of the wheel",
    "plain-urls": "See https://github.com/org/repo and ssh://git@github.com/org/repo.git",
    "prose": "Rotate the AWS password and the GitHub token every 90 days; keep keys in the vault.",
}
