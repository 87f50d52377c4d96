"""The append-only journal of mutations beside ``data.toon``.

Invariant: each line is one JSON operation carrying an absolute state (the
whole entry after the change, or a deletion), so replaying any prefix of the
journal over any snapshot that already holds some of its lines yields the
same state: replay is idempotent, and a crash between a compaction's rename
and its journal rewrite loses nothing. A torn last line (a write that never
returned) is ignored.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toon_memory.errors import CorruptFileError
from toon_memory.store.atomic import append_durable


@dataclass(frozen=True)
class Op:
    """One mutation: ``put`` an entry row, ``del`` an entry, or ``sum`` a summary."""

    kind: str
    data: dict[str, Any]

    def encode(self) -> bytes:
        return (json.dumps({"op": self.kind, **self.data}, ensure_ascii=False) + "\n").encode()


def put(row: dict[str, Any]) -> Op:
    return Op("put", {"entry": row})


def delete(entry_id: str) -> Op:
    return Op("del", {"id": entry_id})


def put_summary(file: str, summary: str, date: str) -> Op:
    return Op("sum", {"file": file, "summary": summary, "date": date})


def append_ops(path: Path, ops: list[Op]) -> int:
    """Append ``ops`` durably; return the journal's new length in bytes."""
    return append_durable(path, b"".join(op.encode() for op in ops))


def read_ops(path: Path, start: int = 0) -> tuple[list[Op], int]:
    """Operations from byte ``start`` on, and the offset just past the last whole line."""
    try:
        with path.open("rb") as handle:
            handle.seek(start)
            raw = handle.read()
    except FileNotFoundError:
        return [], 0
    ops: list[Op] = []
    offset = start
    lines = raw.split(b"\n")
    for index, line in enumerate(lines[:-1]):
        offset += len(line) + 1
        if not line.strip():
            continue
        try:
            record = json.loads(line)
            kind = record.pop("op")
        except (ValueError, KeyError):
            if index == len(lines) - 2:
                break
            raise CorruptFileError(
                path, _line_number(path, offset), "unreadable journal line"
            ) from None
        ops.append(Op(str(kind), record))
    return ops, offset


def _line_number(path: Path, offset: int) -> int:
    with path.open("rb") as handle:
        return handle.read(offset).count(b"\n")
