"""The settings of a memory (``config.json``) as values, with sane defaults.

Invariant: pure (no I/O): ``config_from_dict`` turns the parsed JSON object of
config.json into a ``Config`` or raises ``CorruptFileError`` naming the file and
the key; every setting missing or 0 takes its default. ``store.config`` reads
and writes the file.

Limits (``limits`` in config.json, every key optional, 0 or missing means the
default) bound the work one call may ask for; they are checked before any
work, and an input over one is refused naming the field and the setting:

    contentBytes   65536      content of remember / summary text / checkpoint note (UTF-8 bytes)
    keyChars       200        a key
    tags           50         tags (and links) per entry
    tagChars       100        one tag or link
    fileChars      1024       file and path_scope
    queryBytes     8192       a recall/search query, a suggest context, a smart-recall intent
    importBytes    134217728  a file to import (128 MiB)
    importDepth    32         nesting of a JSON file to import

``autoArchive`` (every key optional): ``expired`` (default true) archives
expired entries; ``afterDays`` (default 0, off) entries unused that long;
``maxEntries`` (default 100; 0 turns it off; ``cap`` is its old name) the
oldest, least used non-pinned entries beyond that many active ones.

``verbatim`` (default off): save entries as given, without tag inference or
quality scoring (a new entry's quality is then a neutral 0.5).

``historyVersions`` (default 20) is how many superseded versions of one key
are kept; older ones are dropped, so ``as_of`` reaches back that many changes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toon_memory.errors import FIX_ADVICE, CorruptFileError, quote

MERGE_MODES = ("replace", "keep-first")
HISTORY_VERSIONS = 20
#: The seeds' "100+ entries" auto-archive point (``autoArchive.maxEntries``).
MAX_ENTRIES = 100


@dataclass(frozen=True)
class Limits:
    """How much one call may ask for (``limits`` in config.json)."""

    content_bytes: int = 64 * 1024
    key_chars: int = 200
    tags: int = 50
    tag_chars: int = 100
    file_chars: int = 1024
    query_bytes: int = 8 * 1024
    import_bytes: int = 128 * 1024 * 1024
    import_depth: int = 32


#: config.json spelling of each limit.
LIMIT_SETTINGS: dict[str, str] = {
    "content_bytes": "contentBytes", "key_chars": "keyChars", "tags": "tags",
    "tag_chars": "tagChars", "file_chars": "fileChars", "query_bytes": "queryBytes",
    "import_bytes": "importBytes", "import_depth": "importDepth",
}  # fmt: skip


@dataclass(frozen=True)
class Config:
    """Settings that change how a memory behaves."""

    merge: str = "replace"
    archive_expired: bool = True
    archive_after_days: int = 0
    #: Active entries kept before the oldest, least used go to the archive (0: no cap).
    archive_max_entries: int = MAX_ENTRIES
    vocab: dict[str, list[str]] = field(default_factory=dict)
    #: Sessions seen within this many minutes are active (``sessionWindowMinutes``).
    session_window_minutes: int = 10
    #: Hooks append agent activity to captured.jsonl (``capture``, off by default).
    capture: bool = False
    #: Save entries as given: no tag inference, no quality scoring (``verbatim``, off).
    verbatim: bool = False
    #: Most tokens a hook injects into the agent's context (``hookBudgetTokens``).
    hook_budget_tokens: int = 1500
    #: How much one call may ask for (``limits``).
    limits: Limits = field(default_factory=Limits)
    #: Superseded versions kept per key (``historyVersions``).
    history_versions: int = HISTORY_VERSIONS


def config_from_dict(data: dict[str, Any], path: Path) -> Config:
    """The settings in ``data`` (config.json at ``path``, named in errors)."""
    auto_raw = data.get("autoArchive")
    auto: dict[str, Any] = auto_raw if isinstance(auto_raw, dict) else {}
    merge = str(data.get("merge", "replace"))
    vocab_raw = data.get("vocab")
    vocab: dict[str, Any] = vocab_raw if isinstance(vocab_raw, dict) else {}
    return Config(
        merge=merge if merge in MERGE_MODES else "replace",
        archive_expired=bool(auto.get("expired", True)),
        archive_after_days=_whole(auto.get("afterDays"), path, "autoArchive.afterDays"),
        archive_max_entries=_max_entries(auto, path),
        vocab={str(k): [str(w) for w in v] for k, v in vocab.items() if isinstance(v, list)},
        session_window_minutes=_whole(
            data.get("sessionWindowMinutes"), path, "sessionWindowMinutes"
        )
        or 10,
        capture=data.get("capture") is True,
        verbatim=data.get("verbatim") is True,
        hook_budget_tokens=_whole(data.get("hookBudgetTokens"), path, "hookBudgetTokens") or 1500,
        limits=_limits(data.get("limits"), path),
        history_versions=_whole(data.get("historyVersions"), path, "historyVersions")
        or HISTORY_VERSIONS,
    )


def _max_entries(auto: dict[str, Any], path: Path) -> int:
    """``autoArchive.maxEntries`` (legacy ``cap``): missing means 100, 0 turns the cap off."""
    key = "maxEntries" if "maxEntries" in auto else "cap"
    if auto.get(key) is None:
        return MAX_ENTRIES
    return _whole(auto[key], path, f"autoArchive.{key}")


def _limits(raw: Any, path: Path) -> Limits:
    """The ``limits`` object: each setting a whole number, 0 or missing for the default."""
    if raw is None:
        return Limits()
    if not isinstance(raw, dict):
        raise CorruptFileError(path, None, "limits must be an object", FIX_ADVICE)
    default = Limits()
    values = {
        attr: _whole(raw.get(name), path, f"limits.{name}") or getattr(default, attr)
        for attr, name in LIMIT_SETTINGS.items()
    }
    return Limits(**values)


def _whole(value: Any, path: Path, key: str) -> int:
    """A non-negative whole number setting (missing or null: 0); CorruptFileError naming the key."""
    if value is None or value == "":
        return 0
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise CorruptFileError(
            path, None, f"{key} must be a whole number; got {quote(value)}", FIX_ADVICE
        )
    try:
        number = int(value)
    except ValueError:
        raise CorruptFileError(
            path, None, f"{key} must be a whole number; got {quote(value)}", FIX_ADVICE
        ) from None
    if number < 0:
        raise CorruptFileError(path, None, f"{key} must be 0 or more; got {number}", FIX_ADVICE)
    return number
