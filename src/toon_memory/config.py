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

MERGE_MODES = ("replace", "keep-first")


@dataclass(frozen=True)
class Config:
    """Settings that change how a memory behaves."""

    merge: str = "replace"
    archive_expired: bool = True
    archive_after_days: int = 0
    archive_cap: int = 0
    vocab: dict[str, list[str]] = field(default_factory=dict)


def read_json_object(path: Path) -> dict[str, Any]:
    """A JSON object file ({} when missing); CorruptFileError naming file and line otherwise."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        return {}
    try:
        data = json.loads(text) if text.strip() else {}
    except json.JSONDecodeError as exc:
        raise CorruptFileError(path, exc.lineno, f"invalid JSON: {exc.msg}") from None
    if not isinstance(data, dict):
        raise CorruptFileError(path, 1, "expected a JSON object")
    return data


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
        archive_after_days=int(auto.get("afterDays", 0) or 0),
        archive_cap=int(auto.get("cap", 0) or 0),
        vocab={str(k): [str(w) for w in v] for k, v in vocab.items() if isinstance(v, list)},
    )


def update_config(path: Path, changes: dict[str, Any]) -> dict[str, Any]:
    """Merge ``changes`` into config.json (atomically) and return the result."""
    data = read_json_object(path)
    data.update(changes)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode())
    return data
