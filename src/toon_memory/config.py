"""``config.json`` of a memory folder: settings with sane defaults.

Invariant: reading never fails on a missing file (defaults apply) and names
the file on a malformed one; writing merges into what is there (keys this
version does not know, such as ``encrypted`` or ``capture``, are kept) and
is atomic.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toon_memory.errors import CorruptFileError
from toon_memory.store.atomic import write_atomic
from toon_memory.store.jsonfile import read_json_object

MERGE_MODES = ("replace", "keep-first")


@dataclass(frozen=True)
class Config:
    """Settings that change how a memory behaves."""

    merge: str = "replace"
    archive_expired: bool = True
    archive_after_days: int = 0
    archive_cap: int = 0
    vocab: dict[str, list[str]] = field(default_factory=dict)
    #: Sessions seen within this many minutes are active (``sessionWindowMinutes``).
    session_window_minutes: int = 10
    #: Hooks append agent activity to captured.jsonl (``capture``, off by default).
    capture: bool = False
    #: Most tokens a hook injects into the agent's context (``hookBudgetTokens``).
    hook_budget_tokens: int = 1500


def load_config(path: Path) -> Config:
    data = read_json_object(path)
    auto_raw = data.get("autoArchive")
    auto: dict[str, Any] = auto_raw if isinstance(auto_raw, dict) else {}
    merge = str(data.get("merge", "replace"))
    vocab_raw = data.get("vocab")
    vocab: dict[str, Any] = vocab_raw if isinstance(vocab_raw, dict) else {}
    return Config(
        merge=merge if merge in MERGE_MODES else "replace",
        archive_expired=bool(auto.get("expired", True)),
        archive_after_days=_whole(auto.get("afterDays"), path, "autoArchive.afterDays"),
        archive_cap=_whole(auto.get("cap"), path, "autoArchive.cap"),
        vocab={str(k): [str(w) for w in v] for k, v in vocab.items() if isinstance(v, list)},
        session_window_minutes=_whole(
            data.get("sessionWindowMinutes"), path, "sessionWindowMinutes"
        )
        or 10,
        capture=data.get("capture") is True,
        hook_budget_tokens=_whole(data.get("hookBudgetTokens"), path, "hookBudgetTokens") or 1500,
    )


def _whole(value: Any, path: Path, key: str) -> int:
    """A non-negative whole number setting (missing or null: 0); CorruptFileError naming the key."""
    if value is None or value == "":
        return 0
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise CorruptFileError(path, None, f"{key} must be a whole number; got {value!r}")
    try:
        number = int(value)
    except ValueError:
        raise CorruptFileError(path, None, f"{key} must be a whole number; got {value!r}") from None
    if number < 0:
        raise CorruptFileError(path, None, f"{key} must be 0 or more; got {number}")
    return number


def update_config(path: Path, changes: dict[str, Any]) -> dict[str, Any]:
    """Merge ``changes`` into config.json (atomically) and return the result."""
    data = read_json_object(path)
    data.update(changes)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode())
    return data
