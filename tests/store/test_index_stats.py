"""Statistics over the on-disk index are the statistics of its entries, exactly.

Property: after any history of upserts, deletes, access folds and rebuilds,
``IndexView.stats`` (rows grouped in SQLite, ``rules.stats.grouped_stats``) returns
the very ``Stats`` that ``rules.stats.compute_stats`` returns over the same entries in
the same order (compared by ``repr``: the counters' key order included).
Each field the statistics read varies here, so grouping that left one out (or put
groups in another order) would merge entries that count differently and fail.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import example, given, settings
from hypothesis import strategies as st
from tests.search.builders import TODAY

from toon_memory.model.entry import STATUSES, Entry
from toon_memory.rules.stats import compute_stats
from toon_memory.search.corpus import analyse
from toon_memory.store.index_db import IndexDb
from toon_memory.store.index_view import IndexView

_IDS = [f"{i:08x}" for i in range(10)]
#: Around the day's edges: expired (before today), expiring within 7 days, cold (30 days).
_TTLS = ["", "2026-07-14", "2026-07-15", "2026-07-22", "2026-07-23", "2026-09-01"]
_DAYS = ["2026-06-01", "2026-06-14", "2026-06-15", "2026-07-14"]
_QUALITIES = st.one_of(st.sampled_from([0.5, 0.0, -0.0, 0.1, 0.39, 0.4, 0.7, 1 / 3, 0.1 + 0.2]),
                       st.floats(0, 1))  # fmt: skip

#: Each field the statistics read, with values on both sides of every edge they test.
_FIELDS: dict[str, st.SearchStrategy[object]] = {
    "category": st.sampled_from(["bug", "decision", "knowledge"]),
    "content": st.sampled_from(["same", "other", "redis pool"]),
    "status": st.sampled_from(STATUSES),
    "origin": st.sampled_from(["agent", "human", "import"]),
    "quality": _QUALITIES,
    "priority": st.sampled_from([0, 1, 2, -1]),
    "ttl": st.sampled_from(_TTLS),
    "date": st.sampled_from(_DAYS),
    "last_accessed": st.sampled_from(["", *_DAYS]),
    "accessed": st.integers(0, 3),
}
Step = Entry | tuple[str, ...]


@st.composite
def _histories(draw: st.DrawFn) -> list[Step]:
    """Writes of entries that differ from one another in a field or two (so entries that
    count alike but for one field are common), deletes, access folds and rebuilds."""
    base = Entry(id=_IDS[0], key="k1", **{name: draw(values) for name, values in _FIELDS.items()})  # type: ignore[arg-type]
    steps: list[Step] = []
    for _ in range(draw(st.integers(0, 40))):
        kind = draw(st.sampled_from(["write", "write", "write", "delete", "access", "rebuild"]))
        entry_id = draw(st.sampled_from(_IDS))
        if kind == "write":
            names = draw(st.sets(st.sampled_from(sorted(_FIELDS)), max_size=2))
            steps.append(base.copy(id=entry_id, **{n: draw(_FIELDS[n]) for n in names}))
        elif kind == "access":
            steps.append(("access", entry_id, draw(st.sampled_from(_DAYS))))
        else:
            steps.append((kind, entry_id))
    return steps


class _Reference:
    """The entries the index should describe, in file order, with pending accesses."""

    def __init__(self) -> None:
        self.entries: dict[str, Entry] = {}
        self.pending: dict[str, int] = {}

    def apply(self, step: Step, db: IndexDb) -> None:
        with db.writing():
            if isinstance(step, Entry):  # a persisted row: its accesses still pending add up
                db.upsert(step, analyse)
                self.entries[step.id] = step.copy(accessed=step.accessed
                                                  + self.pending.get(step.id, 0))  # fmt: skip
            elif step[0] == "delete":
                db.remove(step[1])
                self.entries.pop(step[1], None)
                self.pending.pop(step[1], None)
            elif step[0] == "access":
                db.fold_access(step[1], step[2])
                self._access(step[1], step[2])
            else:
                db.clear()
                db.load_entries(self.entries.values(), analyse, self.pending)

    def _access(self, entry_id: str, day: str) -> None:
        found = self.entries.get(entry_id)
        if found is not None:
            last = max(found.last_accessed, day)
            self.entries[entry_id] = found.copy(accessed=found.accessed + 1, last_accessed=last)
            self.pending[entry_id] = self.pending.get(entry_id, 0) + 1


def _entry(entry_id: str, quality: float, **fields: str) -> Entry:
    values = {"date": "2026-07-14", **fields}
    return Entry(id=entry_id, category="bug", key="k1", content="same", quality=quality,
                 **values)  # type: ignore[arg-type]  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(_histories(), st.integers(0, 5))
@example([_entry(_IDS[0], 0.5, date="2026-06-01"), _entry(_IDS[1], 0.5)], 0)  # one cold
@example(
    [
        _entry(_IDS[0], 0.5, date="2026-06-01"),
        _entry(_IDS[1], 0.5, date="2026-06-01", last_accessed="2026-07-01"),
    ],
    0,
)  # one cold
@example([_entry(_IDS[0], -0.0), _entry(_IDS[1], -0.0)], 0)  # SQLite turns -0.0 into 0.0
@example([_entry(i, 0.1) for i in _IDS], 1)  # fsum of ten 0.1: not 10 * 0.1 nor a plain sum
def test_the_grouped_stats_are_the_stats_of_the_entries(steps: list[Step], archived: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        db = IndexDb.open(Path(tmp) / "x.index.sqlite", "v1")
        assert db is not None
        reference = _Reference()
        try:
            for step in steps:
                reference.apply(step, db)
                with db.reading():
                    got = IndexView(db, None).stats(TODAY, archived)
                want = compute_stats(list(reference.entries.values()), TODAY, archived)
                assert repr(got) == repr(want), step
        finally:
            db.close()
