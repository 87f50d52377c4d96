"""Recall parameters: one frozen dataclass and its validation.

Invariant: ``RecallOptions.validated()`` either raises ``InputError`` naming
the bad field or returns options whose every field is in range (mode,
category (empty or one of ``CATEGORIES``),
``hops`` 1|2 resolved from the defaults, budget, ``limit`` 1..``MAX_LIMIT``
resolved from the defaults, ``budget_tokens`` 0 or at least 50, real booleans,
ISO dates, ``ids`` as a tuple), so the ranking code never re-checks them. The
checks are ``model.checks``'; every default lives here, whoever calls the engine.

Default ``hops`` when None: ``graph`` 2, otherwise 1 (only graph mode spreads).

``intent`` (default on): read temporal intent from the query (``search.intent``):
"latest"/"before" words and a named day; a day after "as of" becomes ``as_of``
when none was given.

``pins`` (default on): pinned entries lead the answer, matching or not, but
pins the query does not match take at most half of the places while matches
are left to fill them (``search.pipeline``). Off (suggest, focus, the
viewer): a pin is an entry like any other, shown only when it matches.

Default ``limit`` when None: ``index`` 50; ``graph`` tiny 3 / normal 6 /
deep 12; otherwise (``flat``, search, suggest) tiny 3 / normal 10 / deep 20.

``pool`` (default ``POOL``, 400): how many of the best matches by relevance are fused
with the other signals (a suggest fuses ``search.engine.SUGGEST_POOL``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import date

from toon_memory.errors import InputError
from toon_memory.model.checks import (
    check_bool,
    check_budget_tokens,
    check_choice,
    check_limit,
    check_whole,
)
from toon_memory.model.clock import parse_date
from toon_memory.model.entry import CATEGORIES, RECALL_BUDGETS, RECALL_MODES

MODES = RECALL_MODES
BUDGETS = RECALL_BUDGETS
_FLAT_LIMIT = {"tiny": 3, "normal": 10, "deep": 20}
_GRAPH_LIMIT = {"tiny": 3, "normal": 6, "deep": 12}
INDEX_LIMIT = 50
#: Candidates fused and adjusted per query (``pool``): the best matches by relevance.
POOL = 400
MAX_LIMIT = 10_000
GRAPH_HOPS = 2
#: The boolean options: real booleans only (``model.checks.check_bool``).
_FLAGS = ("compact", "explain", "rrf", "session_bias", "smart", "intent")


def split_ids(value: str | tuple[str, ...] | list[str] | None) -> tuple[str, ...]:
    """``"a1b2c3d4, use-zod;x"`` -> ``("a1b2c3d4", "use-zod", "x")`` (order kept, no dupes)."""
    if value is None:
        return ()
    items = re.split(r"[\s,;]+", value) if isinstance(value, str) else list(value)
    return tuple(dict.fromkeys(str(item).strip() for item in items if str(item).strip()))


def _date_or_empty(value: str, name: str) -> str:
    text = str(value or "").strip()
    return parse_date(text, name).isoformat() if text else ""


@dataclass(frozen=True, slots=True)
class RecallOptions:
    """Every parameter of ``recall``/``search`` (see the issue and tool reference)."""

    query: str = ""
    mode: str = "flat"
    hops: int | None = None
    limit: int | None = None
    ids: tuple[str, ...] | str | None = None
    budget: str = "normal"
    compact: bool = False
    budget_tokens: int = 0
    explain: bool = False
    rrf: bool = True
    session_bias: bool = False
    path_scope: str = ""
    as_of: str = ""
    from_date: str = ""
    to_date: str = ""
    category: str = ""
    tags: tuple[str, ...] = ()
    smart: bool = False
    intent: bool = True
    pins: bool = True
    #: At most this many of the query's words ask, those in the fewest entries (0: all).
    words: int = 0
    #: The best matches fused with the other signals: the matches an answer may show,
    #: whatever ``limit`` (a pin the query does not match may be added to them).
    pool: int = POOL

    def validated(self) -> RecallOptions:
        """A checked, normalised copy; raises ``InputError(field, problem)``."""
        mode = check_choice(self.mode or "flat", "mode", MODES)
        budget = check_choice(self.budget or "normal", "budget", BUDGETS)
        hops = self._checked_hops(mode)
        limit = self._checked_limit(mode, budget)
        tokens = check_budget_tokens(self.budget_tokens)
        words = check_whole(self.words, "words", 0)
        pool = check_whole(self.pool, "pool", 1)
        for name in _FLAGS:
            check_bool(getattr(self, name), name)
        from_date = _date_or_empty(self.from_date, "from_date")
        to_date = _date_or_empty(self.to_date, "to_date")
        if from_date and to_date and from_date > to_date:
            raise InputError("to_date", f"{to_date} is before from_date {from_date}")
        tags = split_ids(self.tags) if isinstance(self.tags, str) else tuple(self.tags)
        category = check_choice(self.category, "category", CATEGORIES) if self.category else ""
        return replace(
            self,
            query=str(self.query or "").strip(),
            mode=mode,
            hops=hops,
            budget=budget,
            limit=limit,
            budget_tokens=tokens,
            words=words,
            pool=pool,
            ids=split_ids(self.ids),
            as_of=_date_or_empty(self.as_of, "as_of"),
            from_date=from_date,
            to_date=to_date,
            path_scope=str(self.path_scope or "").strip(),
            category=category,
            tags=tuple(t.strip().lower() for t in tags if t.strip()),
        )

    def _checked_hops(self, mode: str) -> int:
        if self.hops is None:
            return GRAPH_HOPS if mode == "graph" else 1
        return check_whole(self.hops, "hops", 1, GRAPH_HOPS)

    def _checked_limit(self, mode: str, budget: str) -> int:
        if self.limit is None:
            if mode == "index":
                return INDEX_LIMIT
            return (_GRAPH_LIMIT if mode == "graph" else _FLAT_LIMIT)[budget]
        return check_limit(self.limit, MAX_LIMIT)

    @property
    def as_of_date(self) -> date | None:
        return date.fromisoformat(self.as_of) if self.as_of else None
