"""Context briefs: one call that replaces the five or six an agent would make.

Invariant: every brief is deterministic (no LLM) and reads only the memory,
the project, git and the sessions (pruning dead sessions, as every
reader of sessions does; recording no access; health findings are cached per
memory state, in this process and under the user's home). Each returns a result of
``context.results`` that carries its ``budget_tokens``; ``render.context``
fits the text to it, cutting the lowest-value lines first and saying what it
left out. Invalid arguments raise ``InputError`` before anything is read.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from toon_memory.rules.budgets import DEFAULT_BUDGET_TOKENS, check_budget_tokens

if TYPE_CHECKING:
    from datetime import datetime

    from toon_memory.memory.briefs.audit import FindingsCache
    from toon_memory.memory.briefs.results import (
        Brief,
        Briefing,
        Changes,
        Focus,
        HealthReport,
        MemoryExport,
        SessionView,
    )
    from toon_memory.memory.recaller import Recaller
    from toon_memory.memory.sessions import Sessions
    from toon_memory.model.entry import Entry
    from toon_memory.model.heartbeat import Session
    from toon_memory.store.store import Store

#: Entries listed at the top of a brief / a briefing (and per category section).
BRIEF_TOP = 6
FOCUS_ENTRIES = 6
COMMIT_LIMIT = 50
FILE_LIMIT = 100


class Briefs:
    """``Memory.context``: briefs for a session.

    ``session_id`` names this process's own session when it has one (the MCP
    server's heartbeat, i.e. ``Sessions.current``); ``diff`` never takes it for
    "the last session". The
    last finished session seen by any brief is remembered, so pruning its
    file (its process is gone) does not make a later ``diff`` forget it.
    """

    def __init__(self, store: Store, root: Path, recaller: Recaller, sessions: Sessions) -> None:
        self.store = store
        self.root = root
        self._recaller = recaller
        self._sessions = sessions
        self._findings: FindingsCache | None = None
        self._last: Session | None = None

    @property
    def session_id(self) -> str:
        return self._sessions.current

    # -- the six briefs -----------------------------------------------------------------
    def brief(self, budget_tokens: int = DEFAULT_BUDGET_TOKENS) -> Brief:
        """Memory (counts, top entries), active sessions and health in one compact answer."""
        from toon_memory.memory.briefs.results import Brief

        budget = check_budget_tokens(budget_tokens)
        health = self._health(budget)
        return Brief(self._recaller.primer(BRIEF_TOP), self._view(), health, budget)

    def generate(self, budget_tokens: int = DEFAULT_BUDGET_TOKENS) -> Briefing:
        """Project (name, manager, languages), git state, memory and active sessions."""
        from toon_memory.memory.briefs.results import Briefing
        from toon_memory.project.languages import describe_project
        from toon_memory.project.repository import git_facts

        budget = check_budget_tokens(budget_tokens)
        return Briefing(
            describe_project(self.root), git_facts(self.root),
            self._recaller.primer(BRIEF_TOP), self._view(), budget,
        )  # fmt: skip

    def diff(self, since: str | None = None, budget_tokens: int = DEFAULT_BUDGET_TOKENS) -> Changes:
        """Commits, changed files, new/updated/forgotten memories and sessions since ``since``.

        ``since``: ``24h``, ``7d`` or ``YYYY-MM-DD``; by default the last
        heartbeat of the last session (the newest one no longer active, other
        than this one), else the last 24 hours.
        """
        from toon_memory.memory.briefs.results import Changes
        from toon_memory.memory.curation import every_entry
        from toon_memory.memory.recaller import is_memory_file
        from toon_memory.project.history import changed_files_since, commits_since
        from toon_memory.rules import since as changes

        budget = check_budget_tokens(budget_tokens)
        text = "" if since is None else str(since).strip()
        moment = changes.from_argument(text) if text else None
        now = self._now()
        if moment is None:
            self._all_sessions(now)
            moment = changes.from_session(self._last)
        found = changes.memory_changes(every_entry(self.store), moment.stamp)
        return Changes(
            moment.stamp, moment.basis,
            tuple(commits_since(self.root, moment.git, limit=COMMIT_LIMIT)),
            tuple(f for f in changed_files_since(self.root, moment.git, limit=FILE_LIMIT)
                  if not is_memory_file(f)),
            found.created, found.updated, found.forgotten, self._view(now), budget,
        )  # fmt: skip

    def focus(self, query: str, budget_tokens: int = DEFAULT_BUDGET_TOKENS) -> Focus:
        """Memories matching ``query``, the files they and it name, callers and tests."""
        from toon_memory.errors import InputError
        from toon_memory.memory.briefs.focusing import code_around
        from toon_memory.memory.briefs.results import Focus
        from toon_memory.model.clock import today
        from toon_memory.rules.remember import check_text
        from toon_memory.search import RecallOptions
        from toon_memory.store.config import load_config

        limits = load_config(self.store.paths.config).limits
        text = " ".join(check_text(query, "query", limits, "query_bytes").split())
        if not text:
            raise InputError("query", "must not be empty")
        budget = check_budget_tokens(budget_tokens)
        engine = self._recaller.engine()
        entries = engine.recall(
            RecallOptions(query=text, limit=FOCUS_ENTRIES, pins=False), today=today()
        )
        found = code_around(self.root, text, entries.entries)
        return Focus(
            text, tuple(entries.entries), found.files, found.symbols, found.callers,
            found.tests, budget,
        )  # fmt: skip

    def health(self, budget_tokens: int = DEFAULT_BUDGET_TOKENS) -> HealthReport:
        """Score 0-100 and the findings behind it (orphan links, duplicates, broken files,
        expired TTLs, missing evidence, stale claims, stale sessions)."""
        return self._health(check_budget_tokens(budget_tokens))

    def export(
        self, compact: bool = False, budget_tokens: int = DEFAULT_BUDGET_TOKENS
    ) -> MemoryExport:
        """Every active entry, best first, as markdown for a system prompt (compact: one line each)."""
        from collections import Counter

        from toon_memory.memory.briefs.results import MemoryExport
        from toon_memory.project.languages import describe_project

        budget = check_budget_tokens(budget_tokens)
        ranked = self._ranked()
        counts = dict(Counter(e.category for e in ranked))
        name = describe_project(self.root).name
        return MemoryExport(name, tuple(ranked), counts, bool(compact), budget)

    # -- shared parts ---------------------------------------------------------------------
    def _now(self) -> datetime:
        from toon_memory.model.heartbeat import clock_now

        return clock_now()

    def _window(self) -> int:
        from toon_memory.store.config import load_config

        return load_config(self.store.paths.config).session_window_minutes

    def _all_sessions(self, now: datetime | None = None) -> list[Session]:
        """Every session file (read before any pruning); notes the last finished session."""
        from toon_memory.memory.briefs.activity import last_session

        found = self._sessions.heartbeats.read()
        moment, window = now or self._now(), self._window()
        if self._last is not None and any(s.id == self._last.id for s in found):
            self._last = None  # judged again from its file (a beat may have revived it)
        last = last_session(found, window, moment, self.session_id)
        if self._last is None or (last is not None and last.last_seen > self._last.last_seen):
            self._last = last
        return found

    def _view(self, now: datetime | None = None) -> SessionView:
        from toon_memory.memory.briefs.activity import session_view

        moment = now or self._now()
        self._all_sessions(moment)
        return session_view(self._sessions.heartbeats, self.root, self._window(), moment)

    def _health(self, budget: int) -> HealthReport:
        from toon_memory.memory.briefs.activity import stale_count
        from toon_memory.memory.briefs.audit import FindingsCache, all_findings
        from toon_memory.memory.briefs.results import HealthReport
        from toon_memory.rules.curation.health import health_score

        now, window = self._now(), self._window()
        stale = stale_count(self._all_sessions(), window, now)  # counted, then pruned
        self._sessions.heartbeats.prune(window, now)
        if self._findings is None:
            self._findings = FindingsCache()
        entries, cached = self._findings.findings(self.store)
        findings = all_findings(entries, cached, self.root, stale)
        active = [e for e in entries if e.active]
        counts: dict[str, int] = {}
        for entry in active:
            counts[entry.category] = counts.get(entry.category, 0) + 1
        quality = sum(e.quality for e in active) / len(active) if active else 0.0
        return HealthReport(
            health_score(findings), tuple(findings), counts, round(quality, 2), stale, budget
        )

    def _ranked(self) -> list[Entry]:
        """Every active entry, in the engine's no-query order (pinned first)."""
        from toon_memory.model.clock import today
        from toon_memory.search import RecallOptions
        from toon_memory.search.options import MAX_LIMIT

        active = [e for e in self.store.state().entries.values() if e.active]
        if not active:
            return []
        options = RecallOptions(limit=min(len(active), MAX_LIMIT))
        ranked = self._recaller.engine().recall(options, today=today()).entries
        if len(ranked) == len(active):
            return ranked
        shown = {e.id for e in ranked}  # past the engine's MAX_LIMIT: the rest in file order
        return ranked + [e for e in active if e.id not in shown]
