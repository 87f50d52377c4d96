"""The anchored prefilter (``_ANCHORED`` + ``_AWS_SECRET``) says a text might hold a secret
exactly when the one-regex prefilter ``_MAYBE`` matches it, on texts built from the pieces
the patterns look for (and on every known secret)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from tests.rules.secrets_scan.fixtures import SECRETS

from toon_memory.rules.secrets import _MAYBE, might_hold_secret

PIECES = st.sampled_from([
    "A3T", "ABIA", "ACCA", "AKIA", "ASIA", "ABCDEFGHIJ0123456789", "ABCDEFGH",
    "aws", "AWS", "aWs", "key", "KEY", "pw", "pass", "token", "'", '"', "=", " ",
    "wJalrXUtnFEMI/K7MDENG", "/bPxRfiCYzQ8vLm2Tk9", "ghp_", "gho_", "glpat-", "gldt-", "GR1348941",
    "T3BlbkFJ", "PRIVATE KEY", "PuTTY-User-Key-File", "://", "user", ":", "@", "/", "?",
    "xoxb-", "XOXB-", "xOx", "hooks.slack.com/services/", "sk_live_", "rk_live_", "k_live_",
    "pypi-AgE", ":_authToken=", "SG.", "sq0csp-", "AccountKey=", "eyJ", ".", "M", "N", "O",
    "abcdefghijklmnopqrstuvw", "x" * 6, "a" * 22, "a" * 36, "12345678", "1234567890",
    "٣٣٣٣٣٣٣٣", "ſ", "K", "-", "_", "\n", "é", "ö",
])  # fmt: skip


@settings(max_examples=2000)
@given(st.lists(st.one_of(PIECES, st.text(max_size=3)), max_size=14).map("".join))
def test_the_anchored_prefilter_agrees_with_the_one_regex(text: str) -> None:
    assert might_hold_secret(text) == (_MAYBE.search(text) is not None)


def test_every_known_secret_passes_both() -> None:
    for name, (text, _secret, _kind) in SECRETS.items():
        assert might_hold_secret(text) and _MAYBE.search(text), name
