"""Merging memories entry by entry: three versions (git) or two (import, sync).

Invariant: nothing is lost and a forget is honoured. Entries are matched by
id, then active entries by key, with the remember merge rules: tags and links
keep whatever either side added (a removal made on one side only stays
removed), confidence and importance take the maximum, the newest content
wins and the other content is kept as a superseded history entry. An entry
hard-deleted on one side stays deleted unless the other side edited it, in
which case it is kept as obsolete; a status set on one side (a soft forget,
a supersede) is kept. The result does not depend on which side is "ours"
(up to entry order), new ids are derived from content (no randomness), and
merging a side with itself changes nothing. Pure: no I/O.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from toon_memory.model.entry import CATEGORIES, IMPORTANCE_RANK, Entry, Summary, is_valid_id

_ATTRS: tuple[str, ...] = tuple(f.name for f in fields(Entry))
#: Attributes resolved by a rule of their own when both sides changed them.
_MISSING = object()


@dataclass
class EntryMerge:
    """The merged entries (file order) and what the merge had to decide."""

    entries: list[Entry]
    notes: list[str] = field(default_factory=list)
    #: Superseded versions the merge created (content that lost to newer content).
    history: list[Entry] = field(default_factory=list)


def _row(entry: Entry) -> str:
    return json.dumps(entry.to_row(), sort_keys=True, ensure_ascii=False)


def _newness(entry: Entry) -> tuple[str, str]:
    """Which of two versions is newer: ``updated``, then a content-based tie-break."""
    return (entry.updated or entry.created or entry.date, _row(entry))


def derive_id(seed: str, taken: Iterable[str]) -> str:
    """An 8-hex id derived from ``seed`` (deterministic), not in ``taken``."""
    used = set(taken)
    for salt in range(1_000_000):
        candidate = hashlib.sha256(f"{seed}\0{salt}".encode()).hexdigest()[:8]
        if candidate not in used:
            return candidate
    raise RuntimeError("no free id")  # pragma: no cover - 16^8 ids


def merge_sets(base: Sequence[str] | None, ours: Sequence[str], theirs: Sequence[str]) -> list[str]:
    """What either side added, minus what one side removed (order: ours, then theirs)."""
    was = set(base or ())
    kept = [x for x in ours if x in theirs or x not in was]
    return kept + [x for x in theirs if x not in kept and x not in was]


def _merge_meta(base: dict[str, Any] | None, ours: Entry, theirs: Entry) -> dict[str, Any]:
    """meta key by key, like any field: the changed side wins, else the newer side's value."""
    newer = ours if _newness(ours) >= _newness(theirs) else theirs
    was = base if base is not None else {}
    out: dict[str, Any] = {}
    for name in dict.fromkeys([*ours.meta, *theirs.meta]):
        o, t = ours.meta.get(name, _MISSING), theirs.meta.get(name, _MISSING)
        b = was.get(name, _MISSING)
        value = o if o == t else t if o == b else o if t == b else newer.meta.get(name, _MISSING)
        if value is _MISSING:  # both changed it and the newer side dropped it: keep the other's
            value = o if o is not _MISSING else t
        if value is not _MISSING:
            out[name] = value
    return out


def _resolve(name: str, base: Entry | None, ours: Entry, theirs: Entry) -> Any:
    """The merged value of one attribute both sides changed differently."""
    o, t = getattr(ours, name), getattr(theirs, name)
    newer = ours if _newness(ours) >= _newness(theirs) else theirs
    if name in ("tags", "links"):
        return merge_sets(getattr(base, name) if base else None, o, t)
    if name in ("confidence", "quality", "last_accessed", "updated", "date"):
        return max(o, t)
    if name == "accessed":
        return max(o, t) if base is None else o + t - base.accessed
    if name == "created":
        return min(v for v in (o, t) if v) if o and t else o or t
    if name == "importance":
        return o if IMPORTANCE_RANK.get(o, 0) >= IMPORTANCE_RANK.get(t, 0) else t
    if name == "meta":
        return _merge_meta(base.meta if base else None, ours, theirs)
    return getattr(newer, name)


def _merge_versions(base: Entry | None, ours: Entry, theirs: Entry) -> tuple[Entry, Entry | None]:
    """One entry changed on both sides -> (merged, losing content kept as history or None)."""
    merged = ours.copy()
    newer = ours if _newness(ours) >= _newness(theirs) else theirs
    for name in _ATTRS:
        o, t = getattr(ours, name), getattr(theirs, name)
        b = getattr(base, name) if base is not None else _MISSING
        if o == t:
            continue
        if name in ("status", "superseded_on"):
            value = _status_field(name, base, ours, theirs, newer)
        elif o == b:
            value = t
        elif t == b:
            value = o
        else:
            value = _resolve(name, base, ours, theirs)
        setattr(merged, name, value)
    both_wrote = ours.content != theirs.content and (
        base is None or base.content not in (ours.content, theirs.content)
    )
    loser = theirs if newer is ours else ours
    return merged, loser.copy(priority=0) if both_wrote else None


def _status_field(name: str, base: Entry | None, ours: Entry, theirs: Entry, newer: Entry) -> Any:
    """status and superseded_on move together: the side that changed the status, else the newer."""
    if base is not None and ours.status == base.status:
        return getattr(theirs, name)
    if base is not None and theirs.status == base.status:
        return getattr(ours, name)
    return getattr(newer, name)


def _as_history(entry: Entry, winner: Entry, taken: set[str]) -> Entry:
    """A losing version, as a superseded entry with a derived id."""
    entry.id = derive_id(f"{entry.key}\0{entry.content}\0{entry.updated}", taken)
    taken.add(entry.id)
    entry.status = "superseded"
    entry.superseded_on = entry.superseded_on or winner.date or winner.updated[:10]
    entry.links = merge_sets(None, entry.links, [f"superseded_by:{entry.key}"])
    return entry


class _Merger:
    """One merge: the three sides by id, and the entries chosen so far."""

    def __init__(
        self, base: Sequence[Entry], ours: Sequence[Entry], theirs: Sequence[Entry]
    ) -> None:
        self.base = {e.id: e for e in base}
        self.ours = {e.id: e for e in ours}
        self.theirs = {e.id: e for e in theirs}
        self.taken = set(self.base) | set(self.ours) | set(self.theirs)
        self.out: dict[str, Entry] = {}
        self.extra: list[Entry] = []
        self.notes: list[str] = []
        self.history: list[Entry] = []

    def separate_colliding_ids(self) -> None:
        """An id naming different keys on the two sides: theirs gets a new id."""
        for entry_id, entry in list(self.theirs.items()):
            mine = self.ours.get(entry_id)
            if mine is not None and mine.key != entry.key:
                moved = entry.copy(id=derive_id(f"{entry.key}\0{entry.id}", self.taken))
                self.taken.add(moved.id)
                self.extra.append(moved)
                self.notes.append(f"{entry.key}: id {entry_id} also names {mine.key!r}; "
                                  f"kept as {moved.id}")  # fmt: skip
                base = self.base.get(entry_id)
                if base is not None and base.key == mine.key:
                    self.theirs[entry_id] = base
                else:
                    del self.theirs[entry_id]

    def by_id(self) -> None:
        order = list(dict.fromkeys([*self.ours, *self.theirs]))
        for entry_id in order:
            merged = self._one(self.base.get(entry_id), self.ours.get(entry_id),
                               self.theirs.get(entry_id))  # fmt: skip
            if merged is not None:
                self.out[entry_id] = merged
        for entry in self.extra:
            self.out[entry.id] = entry

    def _one(self, base: Entry | None, ours: Entry | None, theirs: Entry | None) -> Entry | None:
        if ours is None or theirs is None:
            return self._one_side(base, ours or theirs)
        if _row(ours) == _row(theirs):
            return ours.copy()
        if base is not None and _row(ours) == _row(base):
            return theirs.copy()
        if base is not None and _row(theirs) == _row(base):
            return ours.copy()
        merged, loser = _merge_versions(base, ours, theirs)
        if loser is not None:
            self.history.append(_as_history(loser, merged, self.taken))
        return merged

    def _one_side(self, base: Entry | None, only: Entry | None) -> Entry | None:
        if only is None or base is None:
            return None if only is None else only.copy()
        if _row(only) == _row(base):
            return None  # deleted on the other side, unchanged here: the delete wins
        kept = only.copy()
        if kept.active:
            kept.status = "obsolete"
        self.notes.append(
            f"{kept.key}: deleted on one side, edited on the other; kept as {kept.status}"
        )
        return kept

    def by_key(self) -> None:
        """Active entries sharing a key: the newest content wins, the others become history."""
        groups: dict[str, list[Entry]] = {}
        for entry in self.out.values():
            if entry.active:
                groups.setdefault(entry.key, []).append(entry)
        for key, group in groups.items():
            if len(group) > 1:
                self._fold_key(key, group)

    def _fold_key(self, key: str, group: list[Entry]) -> None:
        group.sort(key=_newness, reverse=True)
        winner = group[0]
        for other in group[1:]:
            if other.content == winner.content:
                if other.id in self.ours and winner.id not in self.ours:
                    winner, other = other, winner  # same text: keep the id this side has
                _fold_fields(winner, other)
                del self.out[other.id]
                continue
            _fold_fields(winner, other)
            other.status = "superseded"
            other.superseded_on = winner.date or winner.updated[:10]
            other.links = merge_sets(None, other.links, [f"superseded_by:{key}"])
            other.priority = 0
        self.notes.append(f"{key}: {len(group)} active versions merged; newest content kept")

    def drop_repeated_history(self) -> None:
        """A superseded/obsolete version held on both sides (or made again by this merge) is
        kept once: the copy ours already has."""

        def mark(entry: Entry) -> tuple[str, str, str]:
            return (entry.key, entry.content, entry.status)

        mine = {e.id for e in self.out.values() if e.id in self.ours or e.id in self.base}
        seen = {mark(e) for e in self.out.values() if e.id in mine and not e.active}
        for entry in [e for e in self.out.values() if e.id not in mine and not e.active]:
            if mark(entry) in seen:
                del self.out[entry.id]
        seen |= {mark(e) for e in self.out.values() if not e.active}
        kept: list[Entry] = []
        for entry in self.history:
            if mark(entry) not in seen:
                seen.add(mark(entry))
                kept.append(entry)
        self.history = kept

    def result(self) -> EntryMerge:
        entries = [*self.out.values(), *self.history]
        return EntryMerge(entries, self.notes, list(self.history))


def _fold_fields(winner: Entry, other: Entry) -> None:
    """Give ``winner`` what ``other`` adds: tags, links, the higher confidence and importance."""
    winner.tags = merge_sets(None, winner.tags, other.tags)
    winner.links = merge_sets(None, winner.links, other.links)
    winner.confidence = max(winner.confidence, other.confidence)
    winner.quality = max(winner.quality, other.quality)
    winner.accessed += other.accessed
    winner.last_accessed = max(winner.last_accessed, other.last_accessed)
    if IMPORTANCE_RANK.get(other.importance, 0) > IMPORTANCE_RANK.get(winner.importance, 0):
        winner.importance = other.importance
    winner.priority = winner.priority or other.priority
    for attr in ("file", "ttl", "path_scope"):
        if not getattr(winner, attr):
            setattr(winner, attr, getattr(other, attr))
    winner.meta = {**other.meta, **winner.meta}
    winner.updated = max(winner.updated, other.updated)
    winner.date = max(winner.date, other.date)
    winner.created = min(v for v in (winner.created, other.created) if v) if (
        winner.created or other.created) else ""  # fmt: skip


def merge_entries3(
    base: Sequence[Entry], ours: Sequence[Entry], theirs: Sequence[Entry]
) -> EntryMerge:
    """Three versions of one file's entries -> the merged entries (ours' order first)."""
    merger = _Merger(base, ours, theirs)
    merger.separate_colliding_ids()
    merger.by_id()
    merger.by_key()
    merger.drop_repeated_history()
    return merger.result()


def merge_entries2(current: Sequence[Entry], incoming: Sequence[Entry]) -> EntryMerge:
    """Bring ``incoming`` into ``current`` (no common base: nothing counts as deleted)."""
    return merge_entries3((), current, incoming)


def merge_summaries3(
    base: Sequence[Summary], ours: Sequence[Summary], theirs: Sequence[Summary]
) -> list[Summary]:
    """Summaries by file: the side that changed one wins, else the newer (then longer) one."""
    b = {s.file: s for s in base}
    o = {s.file: s for s in ours}
    t = {s.file: s for s in theirs}
    out: list[Summary] = []
    for name in dict.fromkeys([*o, *t]):
        mine, other, was = o.get(name), t.get(name), b.get(name)
        if mine is None or other is None:
            only = mine or other
            if only is not None and (was is None or only != was):
                out.append(only)
            continue
        if mine == other or other == was:
            out.append(mine)
        elif mine == was:
            out.append(other)
        else:
            out.append(max(mine, other, key=lambda s: (s.date, len(s.summary), s.summary)))
    return out


def clean_incoming(entries: Iterable[Entry]) -> tuple[list[Entry], list[str]]:
    """Entries from another memory, checked: no key or content -> skipped (said), an unknown
    category -> knowledge (said), an invalid or repeated id -> a derived one."""
    kept: list[Entry] = []
    notes: list[str] = []
    taken: set[str] = set()
    for number, entry in enumerate(entries, start=1):
        label = f"entry {number} ({entry.key or '?'})"
        if not entry.key.strip() or not entry.content.strip():
            notes.append(f"{label}: skipped: key and content are required")
            continue
        entry = entry.copy()
        if entry.category not in CATEGORIES:
            notes.append(f"{label}: category {entry.category!r} unknown, stored as knowledge")
            entry.meta.setdefault("category", entry.category)
            entry.category = "knowledge"
        if not is_valid_id(entry.id) or entry.id in taken:
            entry.id = derive_id(f"{entry.key}\0{entry.content}\0{number}", taken)
        taken.add(entry.id)
        kept.append(entry)
    return kept, notes
