"""What a corpus kept outside the process offers the ranker (``search.source``): the
``CorpusSource`` protocol, which the on-disk index (``store.index_reads``) implements.

Invariant: every method reads and none writes; a source answers within one snapshot
(the caller's), so what one query reads of it is one state of the memory. Optional
additions that let a long-lived process keep what it read are in ``search.warm``.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Protocol

from toon_memory.model.entry import Entry
from toon_memory.search.warm import Row

#: One link between two nodes, seen from a node: (other id, other's graph sequence,
#: True when the link is the node's own, its type). See ``CorpusSource.links``.
LinkRow = tuple[str, int, bool, str]
#: What ``signals.usage_from`` reads of an entry.
UsageFields = tuple[str, str, str, int]


class CorpusSource(Protocol):
    """What a derived index stores (``store.index_db.IndexDb`` implements it)."""

    def count(self) -> int: ...
    def avg_len(self) -> float: ...
    def doc_freq(self, term: str) -> int: ...
    def postings(self, term: str) -> Iterable[tuple[int, float, float]]: ...
    def postings_in(self, term: str, category: str) -> Iterable[tuple[int, float, float]]:
        """``postings`` of the active entries of ``category`` only."""
        ...

    def slot(self, doc_id: str) -> int | None: ...
    def doc_id(self, slot: int) -> str: ...
    def doc_ids(self, slots: Sequence[int]) -> list[str]: ...
    def active_ids(self, slots: Sequence[int], category: str) -> list[str]:
        """``doc_ids``, "" for every slot that is not an active entry of ``category``."""
        ...

    def category_slots(self, category: str) -> list[int]:
        """The slots of the active entries of ``category``, ascending."""
        ...

    def entry(self, doc_id: str) -> Entry | None: ...
    def seq(self, doc_id: str) -> int:
        """When the node last joined the graph (a later upsert: a larger number)."""
        ...

    def links(self, doc_id: str) -> list[LinkRow]:
        """Every link joining ``doc_id`` and another node, in link order: its own links to
        the other's key, and the other's links to its key."""
        ...

    def entries_of(self, ids: Collection[str]) -> dict[str, Entry]: ...
    def entries_at(self, slots: Sequence[int]) -> dict[str, Entry]:
        """``entries_of`` the documents at these slots, by id (unknown slots left out)."""
        ...

    def rows_at(self, slots: Sequence[int]) -> list[Row]:
        """What ranking reads of the documents at many slots (``search.warm.Row``: no
        entry body), any order, unknown slots left out."""
        ...

    def rows_of(self, ids: Collection[str]) -> list[Row]:
        """``rows_at`` by id."""
        ...

    def links_of(self, ids: Collection[str]) -> dict[str, tuple[int, list[LinkRow]]]:
        """``(seq, links)`` of many nodes in one read (``seq`` and ``links`` of each)."""
        ...

    def degree(self, doc_id: str) -> int: ...
    def max_degree(self) -> int: ...
    def ids_with_key(self, key: str) -> list[str]: ...
    def conditional_ids(self) -> Mapping[str, int]:
        """The ids of the entries ``signals.eligible`` must check, each with its slot."""
        ...

    def pinned_ids(self) -> set[str]: ...
    def category_counts(self) -> dict[str, int]:
        """How many active entries each category has."""
        ...

    def usage_groups(self) -> list[UsageFields]:
        """The distinct (last_accessed, date, created, accessed) of the entries."""
        ...

    def ids_in_group(self, fields: UsageFields, after: int, limit: int) -> list[tuple[int, str]]:
        """(slot, id) of up to ``limit`` entries past slot ``after`` with these usage
        fields, in slot order."""
        ...
