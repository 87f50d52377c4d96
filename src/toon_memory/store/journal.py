"""The append-only journal of mutations beside ``data.toon``.

Invariant: each line is one JSON operation carrying an absolute state (the
whole entry after the change, or a deletion), so replaying any prefix of the
journal over any snapshot that already holds some of its lines yields the
same state: replay is idempotent, and a crash between a compaction's rename
and its journal rewrite loses nothing. A torn last line without its newline
(a write that never returned, or one still being written) is not read.

Damage never stops a replay: a whole line that is not an operation (garbage
in the middle, a torn line followed by a newline) is reported in
``JournalRead.damaged`` and skipped, and every readable line is applied.
``split_damaged`` separates the readable lines from the damaged bytes so the
store can keep the latter aside (``journal.broken-<time>``).

In an encrypted memory each line is sealed on its own (``crypto.seal_line``,
a fresh nonce per line), so appends stay appends and a torn line stays one
line. A sealed line that is well formed but fails authentication (a changed
byte, another key) raises ``EncryptionError``: it is never set aside as damage.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toon_memory.store import crypto
from toon_memory.system.atomic import append_durable

KINDS: tuple[str, ...] = ("put", "del", "sum")
PURPOSE = "journal"


@dataclass(frozen=True)
class Op:
    """One mutation: ``put`` an entry row, ``del`` an entry, or ``sum`` a summary."""

    kind: str
    data: dict[str, Any]

    def encode(self, key: crypto.Key | None = None) -> bytes:
        """The journal line (sealed with ``key`` when given)."""
        text = json.dumps({"op": self.kind, **self.data}, ensure_ascii=False).encode()
        return text + b"\n" if key is None else crypto.seal_line(key, text, PURPOSE)


def put(row: dict[str, Any]) -> Op:
    return Op("put", {"entry": row})


def delete(entry_id: str) -> Op:
    return Op("del", {"id": entry_id})


def put_summary(file: str, summary: str, date: str) -> Op:
    return Op("sum", {"file": file, "summary": summary, "date": date})


def append_ops(path: Path, ops: list[Op], key: crypto.Key | None = None) -> int:
    """Append ``ops`` durably (sealed with ``key``); return the journal's new length in bytes."""
    return append_durable(path, b"".join(op.encode(key) for op in ops))


@dataclass
class JournalRead:
    """What a replay found: the operations, the offset past the last whole line, the damage."""

    ops: list[Op] = field(default_factory=list)
    offset: int = 0
    #: Line numbers (1-based, counted from the read's start) of unreadable whole lines.
    damaged: list[int] = field(default_factory=list)


def parse_line(line: bytes, key: crypto.Key | None = None) -> Op | None:
    """One journal line as an operation, or None when it is not one (damage).

    A sealed line is opened with ``key`` (damage without one); ``EncryptionError``
    when it is well formed and fails authentication.
    """
    if crypto.is_sealed_line(line):
        if key is None:  # a plain memory (an encrypted one never reads without its key)
            return None
        opened = crypto.open_line(key, line, PURPOSE, "journal.jsonl")
        if opened is None:
            return None
        line = opened
    try:
        record = json.loads(line)
    except ValueError:  # also UnicodeDecodeError: bytes that are not UTF-8
        return None
    if not isinstance(record, dict):
        return None
    kind = record.pop("op", None)
    if kind == "put" and isinstance(record.get("entry"), dict):
        return Op(kind, record)
    if kind == "del" and isinstance(record.get("id"), str):
        return Op(kind, record)
    if kind == "sum" and isinstance(record.get("file"), str) and "summary" in record:
        return Op(kind, record)
    return None


def read_ops(path: Path, start: int = 0, key: crypto.Key | None = None) -> JournalRead:
    """Operations from byte ``start`` on; unreadable whole lines are skipped and counted."""
    try:
        with path.open("rb") as handle:
            handle.seek(start)
            raw = handle.read()
    except FileNotFoundError:
        return JournalRead()
    read = JournalRead(offset=start)
    lines = raw.split(b"\n")
    for number, line in enumerate(lines[:-1], start=1):
        read.offset += len(line) + 1
        if not line.strip():
            continue
        op = parse_line(line, key)
        if op is None:
            read.damaged.append(number)
        else:
            read.ops.append(op)
    return read


def split_damaged(raw: bytes, key: crypto.Key | None = None) -> tuple[bytes, bytes, int]:
    """(readable lines plus any torn tail, the damaged lines, how many were damaged)."""
    lines = raw.split(b"\n")
    good: list[bytes] = []
    bad: list[bytes] = []
    for line in lines[:-1]:
        if line.strip() and parse_line(line, key) is None:
            bad.append(line + b"\n")
        else:
            good.append(line + b"\n")
    good.append(lines[-1])
    return b"".join(good), b"".join(bad), len(bad)
