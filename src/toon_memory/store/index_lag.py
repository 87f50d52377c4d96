"""Ranking over an index that lags its memory's access log: the accesses not folded yet
read beside it (``AccessTail``), for one snapshot (``store.index_sync.ranking``).

Invariant: a ranking snapshot answers what the same snapshot would answer after the
access-log lines past the position it records were folded into it: its entries are read
with those lines' uses added (``IndexReads.uses``, as ``IndexDb.fold_accesses`` adds them:
one use a line, the later day kept), and a read that groups entries by their use counts
(usage and stats groups) refuses (``Unsettled``) while any are held, so the caller folds
them and asks again. Only whole lines count; the lines are read from the snapshot's own
position, so lines another process folded meanwhile are never counted twice. An index
lags this way only for a long-lived process that asked for it (``synced_index`` with
``lagging``), by at most ``LAG_BYTES`` of one access log (the one its position names);
anything else is folded first, as before.

Why: a long-lived server folded the previous recall's ~30 accesses into the index at the
start of every recall, a write transaction that updates two indexes of the docs table per
row (~0.5 ms of a 5 ms recall at 100,000 entries); held beside the index they cost a dict
lookup per entry read, and are folded with the next write (``remember``), past
``LAG_BYTES``, before a read that groups by them, or by the server once it is idle
(``adapters.server.app``), each entry's row updated once with its tally (``tally``).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from pathlib import Path

from toon_memory.store.cache import Position

#: The most access-log bytes an index may lag by (~1,000 lines, ~35 recalls' accesses).
LAG_BYTES = 32 * 1024


class AccessTail:
    """The access log past one index position, read a piece at a time: (inode, start)
    it was read from, where its whole lines end, and their uses by entry id."""

    def __init__(self) -> None:
        self.key: tuple[int, int] | None = None
        self.end = 0
        self.uses: dict[str, tuple[int, str]] = {}

    def read(self, path: Path, have: Position) -> Mapping[str, tuple[int, str]] | None:
        """The uses of the lines past ``have``; None when they cannot be read as that
        position's tail (another file, one cut shorter, or more than ``LAG_BYTES``)."""
        start = have.access_offset
        try:
            handle = path.open("rb")
        except FileNotFoundError:
            return {} if not start else None
        with handle:
            info = os.fstat(handle.fileno())
            if (start and info.st_ino != have.access_ino) or info.st_size < start:
                return None
            if self.key != (info.st_ino, start) or info.st_size < self.end:
                self.key, self.end, self.uses = (info.st_ino, start), start, {}
            if info.st_size - start > LAG_BYTES:
                return None
            handle.seek(self.end)
            raw = handle.read(info.st_size - self.end)
        lines, size = whole_lines(raw)
        self.end += size
        return tally(lines, self.uses)


def whole_lines(raw: bytes) -> tuple[list[str], int]:
    """The whole lines of an access log's bytes (a last one still being written left out),
    decoded, and how many bytes they take."""
    whole = raw[: raw.rfind(b"\n") + 1]
    return whole.decode("utf-8", "replace").splitlines(), len(whole)


def tally(
    lines: Iterable[str], into: dict[str, tuple[int, str]] | None = None
) -> dict[str, tuple[int, str]]:
    """The uses of access-log lines (``<id> <day>``, whitespace around them ignored) added to
    ``into``: per entry id, how many lines and the latest day (in text order, as the index's
    fold compares them: the later of two days is the larger text)."""
    uses: dict[str, tuple[int, str]] = {} if into is None else into
    for line in lines:
        entry_id, _, day = line.strip().partition(" ")
        count, last = uses.get(entry_id, (0, day))
        uses[entry_id] = count + 1, max(last, day)
    return uses
