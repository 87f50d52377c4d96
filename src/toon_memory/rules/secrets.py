"""Secret scanning on the write path: credentials never enter memory by accident.

Invariant: ``scan_text`` reports every credential that the chosen
``detect-secrets`` plugins (``PLUGINS``) find in a text, by the plugin's type
name only; a finding never carries, and no message here ever quotes, the
secret's value. Text that no plugin could match is recognised by one cheap
prefilter (``_MAYBE``, a superset of the plugins' patterns), so ordinary text
never imports the library (it costs ~100 ms to import). Pure: no I/O.

Chosen plugins are those matching a credential's fixed shape. Left out, as
false-positive-prone on a memory's text: the high-entropy string detectors
(git hashes, sha256 sums, base64 images), the keyword detector (prose about
passwords), public IPs, and the loose Twilio, Mailchimp, Artifactory, IBM,
SoftLayer and Cloudant patterns (long identifiers and hex runs match them).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Protocol

from toon_memory.errors import InputError
from toon_memory.model.checks import check_bool
from toon_memory.model.entry import Entry

#: detect-secrets plugins used: (module under ``detect_secrets.plugins``, class name).
PLUGINS: tuple[tuple[str, str], ...] = (
    ("aws", "AWSKeyDetector"),
    ("github_token", "GitHubTokenDetector"),
    ("gitlab_token", "GitLabTokenDetector"),
    ("openai", "OpenAIDetector"),
    ("private_key", "PrivateKeyDetector"),
    ("basic_auth", "BasicAuthDetector"),
    ("slack", "SlackDetector"),
    ("stripe", "StripeDetector"),
    ("pypi_token", "PypiTokenDetector"),
    ("npm", "NpmDetector"),
    ("sendgrid", "SendGridDetector"),
    ("square_oauth", "SquareOAuthDetector"),
    ("azure_storage_key", "AzureStorageKeyDetector"),
    ("jwt", "JwtTokenDetector"),
    ("discord", "DiscordBotTokenDetector"),
    ("telegram_token", "TelegramBotTokenDetector"),
)

#: A superset of what ``PLUGINS`` match: a text without a match here has no finding.
_MAYBE = re.compile(
    r"(?:A3T[A-Z0-9]|ABIA|ACCA|AKIA|ASIA)[0-9A-Z]{16}"  # AWS access key id
    r"|(?i:aws).{0,20}?(?i:key|pw|pass|token).{0,20}?['\"][0-9a-zA-Z/+]{40}['\"]"  # AWS secret
    r"|gh[pousr]_[A-Za-z0-9_]{36}"  # GitHub
    r"|gl(?:pat|dt|ft|soat|rt|cbt|imt|ptt|agent|oas)-|GR1348941"  # GitLab
    r"|T3BlbkFJ"  # OpenAI
    r"|PRIVATE KEY|PuTTY-User-Key-File"  # PEM, PuTTY
    r"|://[^\s:/?#\[\]@]+:[^\s:/?#\[\]@]+@"  # password in a URL (stops at ':', so linear)
    r"|(?i:xox[abposr]-)|hooks\.slack\.com/services/"  # Slack
    r"|[rs]k_live_"  # Stripe
    r"|pypi-AgE"  # PyPI
    r"|:_authToken="  # npm
    r"|SG\.[\w-]{22}\."  # SendGrid
    r"|sq0csp-"  # Square
    r"|AccountKey="  # Azure storage
    r"|eyJ[\w=-]{1,1024}\."  # JWT (a header of at most 1024 characters)
    r"|[MNO][\w-]{23,25}\.[\w-]{6}\."  # Discord
    r"|\d{8,10}:[\w-]{35}"  # Telegram
)
#: ``_MAYBE``'s alternatives, each written to open with a literal (or a rare character) so the
#: regex engine skips ahead to it instead of trying 20 alternatives at every character; a
#: lookbehind keeps what came before (``[rs]k_live_`` is ``k_live_`` after r or s). A text
#: matches one of them exactly when it matches ``_MAYBE`` (a property test checks it).
_ANCHORED: tuple[re.Pattern[str], ...] = tuple(re.compile(p) for p in (
    r"A(?:3T[A-Z0-9]|BIA|CCA|KIA|SIA)[0-9A-Z]{16}",
    r"gh[pousr]_[A-Za-z0-9_]{36}",
    r"gl(?:pat|dt|ft|soat|rt|cbt|imt|ptt|agent|oas)-", r"GR1348941", r"T3BlbkFJ",
    r"PRIVATE KEY", r"PuTTY-User-Key-File", r"://[^\s:/?#\[\]@]+:[^\s:/?#\[\]@]+@",
    r"[xX](?i:ox[abposr]-)", r"hooks\.slack\.com/services/", r"k_live_(?<=[rs]k_live_)",
    r"pypi-AgE", r":_authToken=", r"SG\.[\w-]{22}\.", r"sq0csp-", r"AccountKey=",
    r"eyJ[\w=-]{1,1024}\.",
    r"\.(?:(?<=[MNO][\w-]{23}\.)|(?<=[MNO][\w-]{24}\.)|(?<=[MNO][\w-]{25}\.))[\w-]{6}\.",
    r":(?<=\d{8}:)[\w-]{35}",
))  # fmt: skip
#: The AWS secret alternative: it needs a quote, so a text without one skips it.
_AWS_SECRET = re.compile(
    r"(?i:aws).{0,20}?(?i:key|pw|pass|token).{0,20}?['\"][0-9a-zA-Z/+]{40}['\"]"
)
#: Plugins read the lines the prefilter matched; a longer line only this far around a match.
_LINE = 4096
_AROUND = 1024

VAULT_HINT = (
    "keep it in the encrypted vault instead (`toon-memory secret store NAME`, MCP memory_secret)"
)
OVERRIDE_HINT = "or pass allow_secrets=true (CLI --allow-secrets) to keep it here"


class _Plugin(Protocol):
    secret_type: str

    def analyze_string(self, string: str) -> Iterable[str]: ...


@dataclass(frozen=True)
class Finding:
    """A credential found in a field: the field's name and the kind of secret, never its value."""

    field: str
    kind: str

    def describe(self, named: bool = True) -> str:
        """What was found, opening with the field's name unless ``named`` is false."""
        return f"{self.field + ' ' if named else ''}holds what looks like a secret ({self.kind})"


@lru_cache(maxsize=1)
def _plugins() -> tuple[_Plugin, ...]:
    """The plugin instances; imports detect-secrets (once, and only when a text needs it)."""
    from importlib import import_module

    found: list[_Plugin] = []
    for module, name in PLUGINS:
        cls = getattr(import_module(f"detect_secrets.plugins.{module}"), name)
        found.append(cls())
    return tuple(found)


def might_hold_secret(text: str) -> bool:
    """False when no plugin could find anything in ``text`` (the cheap prefilter): whether
    ``_MAYBE`` matches, found through ``_ANCHORED`` and ``_AWS_SECRET`` (faster)."""
    if any(pattern.search(text) for pattern in _ANCHORED):
        return True
    return ("'" in text or '"' in text) and _AWS_SECRET.search(text) is not None


def _windows(text: str) -> list[str]:
    """The parts of ``text`` the plugins read: each line holding a prefilter match (a long
    line: around the match), overlapping parts merged, so their work stays linear."""
    spans: list[tuple[int, int]] = []
    for match in _MAYBE.finditer(text):
        start = text.rfind("\n", 0, match.start()) + 1
        end = text.find("\n", match.end())
        end = len(text) if end < 0 else end
        if end - start > _LINE:
            start = max(start, match.start() - _AROUND)
            end = min(end, match.end() + _AROUND)
        if spans and start <= spans[-1][1]:
            spans[-1] = (spans[-1][0], max(end, spans[-1][1]))
        else:
            spans.append((start, end))
    return [text[start:end] for start, end in spans]


def scan_text(text: str) -> list[str]:
    """The kinds of secret found in ``text``, each once, in plugin order."""
    windows = _windows(text) if text else []
    if not windows:
        return []
    kinds: list[str] = []
    for plugin in _plugins():
        for window in windows:
            if any(True for _ in plugin.analyze_string(window)):
                kinds.append(plugin.secret_type)
                break
    return kinds


def _texts(value: object) -> Iterator[str]:
    if value is None:
        return
    if isinstance(value, str):
        yield value
    elif isinstance(value, (list, tuple, set)):
        for item in value:
            yield from _texts(item)
    elif isinstance(value, Mapping):
        yield json.dumps(value, ensure_ascii=False, default=str)
    else:
        yield str(value)


def scan_fields(fields: Mapping[str, object]) -> list[Finding]:
    """Findings in each named field (texts, lists of texts, or JSON-able mappings)."""
    findings: list[Finding] = []
    for name, value in fields.items():
        kinds: list[str] = []
        for text in _texts(value):
            kinds += [kind for kind in scan_text(text) if kind not in kinds]
        findings += [Finding(name, kind) for kind in kinds]
    return findings


def entry_fields(entry: Entry) -> dict[str, Any]:
    """The fields of an entry that are scanned, by their published names."""
    return {
        "key": entry.key, "content": entry.content, "tags": entry.tags, "file": entry.file,
        "path_scope": entry.path_scope, "meta": entry.meta or None,
    }  # fmt: skip


def scan_entry(entry: Entry) -> list[Finding]:
    """Findings in an entry's key, content, tags, file, path scope and extra fields."""
    return scan_fields(entry_fields(entry))


def describe(findings: list[Finding], named: bool = True) -> str:
    """One line naming each field and kind of secret, and where secrets belong (the first
    field's name left out when ``named`` is false: an ``InputError`` opens with it)."""
    parts = [f.describe(named or n > 0) for n, f in enumerate(findings)]
    return f"{'; '.join(parts)}; {VAULT_HINT}"


def refusal(findings: list[Finding]) -> InputError:
    """The error that refuses a write: names the first field, every finding, the vault."""
    return InputError(findings[0].field, f"{describe(findings, named=False)}, {OVERRIDE_HINT}")


#: The parameter that lets a write keep a credential.
ALLOW_FIELD = "allow_secrets"


def check_entry(entry: Entry, allow_secrets: object = False) -> None:
    """Raise ``InputError`` when ``entry`` holds a secret, unless ``allow_secrets`` (a real
    boolean, else ``InputError`` naming it)."""
    if check_bool(allow_secrets, ALLOW_FIELD):
        return
    findings = scan_entry(entry)
    if findings:
        raise refusal(findings)


def check_fields(fields: Mapping[str, object], allow_secrets: object = False) -> None:
    """The write-path check for text beside an entry (tags, summaries, notes, state values):
    ``InputError`` naming the first field holding a secret, unless ``allow_secrets``."""
    if check_bool(allow_secrets, ALLOW_FIELD):
        return
    findings = scan_fields(fields)
    if findings:
        raise refusal(findings)
