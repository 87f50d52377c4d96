"""``memory_merge_sessions``: one list of what parallel sessions observed about a file.

Invariant: observations are taken in time order; each joins the first group
whose first observation's word set has Jaccard > 0.5 with its own (else it
starts a group), so every merged observation is directly similar to its
group's first one. A group shows its most detailed (longest) text and every
session, agent and branch that said it. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from toon_memory.rules.curation.similarity import DUPLICATE_JACCARD, jaccard, term_set


class ObservationLike(Protocol):
    """What merging needs of an observation (``store.observations.Observation`` has it)."""

    @property
    def session(self) -> str: ...
    @property
    def text(self) -> str: ...
    @property
    def at(self) -> str: ...
    @property
    def agent(self) -> str: ...
    @property
    def branch(self) -> str: ...


@dataclass(frozen=True)
class MergedObservation:
    text: str
    sessions: tuple[str, ...]
    agents: tuple[str, ...]
    branches: tuple[str, ...]
    count: int
    first_at: str
    last_at: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "text": self.text, "sessions": list(self.sessions), "agents": list(self.agents),
            "branches": list(self.branches), "count": self.count,
            "first_at": self.first_at, "last_at": self.last_at,
        }  # fmt: skip


def _unique(values: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(v for v in values if v))


def merge_observations(
    observations: Iterable[ObservationLike], threshold: float = DUPLICATE_JACCARD
) -> list[MergedObservation]:
    """Deduplicated observations (Jaccard > ``threshold``), in the order first seen."""
    groups: list[tuple[frozenset[str], list[ObservationLike]]] = []
    for item in sorted(observations, key=lambda o: (o.at, o.session, o.text)):
        text = " ".join(item.text.split())
        if not text:
            continue
        terms = term_set(text)
        for seed, members in groups:
            if (terms and jaccard(seed, terms) > threshold) or (
                not terms and " ".join(members[0].text.split()) == text
            ):
                members.append(item)
                break
        else:
            groups.append((terms, [item]))
    return [_merged(members) for _, members in groups]


def _merged(members: list[ObservationLike]) -> MergedObservation:
    best = max(members, key=lambda o: (len(o.text), -members.index(o)))
    return MergedObservation(
        text=" ".join(best.text.split()),
        sessions=_unique(o.session for o in members),
        agents=_unique(o.agent for o in members),
        branches=_unique(o.branch for o in members),
        count=len(members),
        first_at=members[0].at,
        last_at=members[-1].at,
    )


def observation_key(file: str, text: str) -> str:
    """A kebab-case key for an observation promoted to a memory: file stem + first words."""
    stem = re.sub(r"\.[A-Za-z0-9]+$", "", file.replace("\\", "/").rsplit("/", 1)[-1])
    words = re.findall(r"[a-z0-9]+", f"{stem} {text}".casefold())
    return "-".join(words[:8])[:60].strip("-") or "session-observation"


def known_entry(merged: MergedObservation, entries: Iterable[Any]) -> Any | None:
    """The first active entry whose content says what ``merged`` says (Jaccard > 0.5, the
    seeds' dedup), or None: promoting it again would only duplicate that entry."""
    terms = term_set(merged.text)
    for entry in entries:
        if entry.active and jaccard(terms, term_set(entry.content)) > DUPLICATE_JACCARD:
            return entry
    return None


def observation_draft(file: str, merged: MergedObservation) -> dict[str, Any]:
    """The ``Memory.remember`` arguments that turn a merged observation into a memory.

    Inferred knowledge about ``file``; confidence rises with the number of
    sessions that saw it (0.65 for one, 0.75 for two or more).
    """
    return {
        "category": "knowledge",
        "key": observation_key(file, merged.text),
        "content": merged.text,
        "file": file,
        "tags": ["session-merge"],
        "origin": "inferred",
        "confidence": 0.75 if len(merged.sessions) >= 2 else 0.65,
    }
