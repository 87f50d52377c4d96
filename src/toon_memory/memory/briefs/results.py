"""What each context brief found, before it is rendered to fit its token budget.

Invariant: plain frozen data, no I/O. Every result carries the
``budget_tokens`` its text must fit (0: none); ``render.context`` turns it
into markdown, cutting the lowest-value lines first and saying what it left
out. Lists are already bounded and ordered best first.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING

from toon_memory.memory.recaller import Primer
from toon_memory.model.entry import Entry

if TYPE_CHECKING:
    from toon_memory.model.heartbeat import Session
    from toon_memory.project.callers import Hit
    from toon_memory.project.languages import ProjectFacts
    from toon_memory.project.repository import Commit, GitFacts
    from toon_memory.rules.curation import Finding


@dataclass(frozen=True)
class SessionView:
    """Active sessions (newest first), their soft conflicts (file -> session ids), the branch."""

    sessions: tuple[Session, ...]
    conflicts: dict[str, list[str]]
    branch: str
    now: datetime
    window_minutes: int


@dataclass(frozen=True)
class HealthReport:
    """``context_health``: the score, the findings behind it, and a summary of the memory."""

    score: int
    findings: tuple[Finding, ...]
    counts: dict[str, int]
    average_quality: float
    stale_sessions: int
    budget_tokens: int

    @property
    def entries(self) -> int:
        return sum(self.counts.values())

    def kinds(self) -> dict[str, int]:
        """Finding kind -> how many (a stale-session finding counts its sessions)."""
        found: dict[str, int] = {}
        for finding in self.findings:
            found[finding.kind] = found.get(finding.kind, 0) + finding.count
        return found


@dataclass(frozen=True)
class Brief:
    """``context_brief``: the primer, the active sessions and the health in one answer."""

    primer: Primer
    sessions: SessionView
    health: HealthReport
    budget_tokens: int


@dataclass(frozen=True)
class Briefing:
    """``context_generate``: project, git, memory and sessions."""

    project: ProjectFacts
    git: GitFacts
    primer: Primer
    sessions: SessionView
    budget_tokens: int


@dataclass(frozen=True)
class Changes:
    """``context_diff``: what changed since ``since`` (a day or a UTC stamp).

    ``basis`` says where ``since`` came from (the last session, or the
    caller's ``24h``/``7d``/date).
    """

    since: str
    basis: str
    commits: tuple[Commit, ...]
    files: tuple[str, ...]
    created: tuple[Entry, ...]
    updated: tuple[Entry, ...]
    forgotten: tuple[Entry, ...]
    sessions: SessionView
    budget_tokens: int


@dataclass(frozen=True)
class Focus:
    """``context_focus``: what is relevant to ``query``.

    ``files`` are the source files the query and the memories name (and
    where the named symbols are defined); ``tests`` maps each of them to
    its test files; ``callers`` are uses of the named symbols (definitions
    left out).
    """

    query: str
    entries: tuple[Entry, ...]
    files: tuple[str, ...]
    symbols: tuple[str, ...]
    callers: tuple[Hit, ...]
    tests: dict[str, list[str]] = field(default_factory=dict)
    budget_tokens: int = 0


@dataclass(frozen=True)
class MemoryExport:
    """``context_export``: every active entry, best first, for a system prompt."""

    project: str
    entries: tuple[Entry, ...]
    counts: dict[str, int]
    compact: bool
    budget_tokens: int
