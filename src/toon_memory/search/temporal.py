"""Acting on a query's temporal intent (``search.intent``): relevance before fusion.

Invariant: ``apply_intent`` only rescales or adds relevance of entries the
``allowed`` predicate admits, reads the corpus and never changes it, and is
deterministic (candidates are visited in sorted order). It runs before rank
fusion, so it reorders near-equal matches and leaves a clear relevance gap in
place:

- latest: relevance x (1 + ``LATEST_WEIGHT`` * 0.5^(age / ``LATEST_HALF_LIFE_DAYS``)),
  the age counted from the newest candidate's day (``date``, else ``created``);
  with a named day D, from the newest candidate up to D (later ones: no boost);
- before a named day D ("before June"): as latest up to D, and a candidate
  dated after D x ``LATER_VERSION_FACTOR``;
- earliest: the mirror of latest, the age counted from the oldest candidate's day;
- history: a superseded version takes the relevance of its successor when
  that is higher (it answers "what was it before"), then every superseded
  candidate x (1 + ``HISTORY_BOOST``);
- a named day D (not strict): a candidate created after D that replaced an
  older version x ``LATER_VERSION_FACTOR``; its versions valid on D take its
  relevance, as for history.

Versions of an entry: the entries it links with ``supersedes:``, and the
superseded entries under its own key.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date

from toon_memory.search.corpus import RankCorpus
from toon_memory.search.decay import day_of, recency
from toon_memory.search.intent import Intent
from toon_memory.search.signals import created_day

LATEST_WEIGHT = 0.3
LATEST_HALF_LIFE_DAYS = 30.0
HISTORY_BOOST = 0.2
LATER_VERSION_FACTOR = 0.5
PERIOD_WEIGHT = 0.25
PERIOD_HALF_LIFE_DAYS = 7.0


def predecessors(corpus: RankCorpus, node: str) -> list[str]:
    """The older versions ``node`` replaced: ``supersedes:`` links, superseded same-key entries."""
    found = [other for other, kind in corpus.graph.neighbours(node).items() if kind == "supersedes"]
    entry = corpus.entries[node]
    for other in corpus.ids_of(entry.key):
        if other != node and corpus.entries[other].status == "superseded":
            found.append(other)
    return sorted(set(found))


def apply_intent(
    corpus: RankCorpus,
    relevance: dict[str, float],
    hop: dict[str, int],
    via: dict[str, str],
    intent: Intent,
    allowed: Callable[[str], bool],
) -> None:
    """Rescale ``relevance`` (and pull older versions in, noting ``hop``/``via``) in place."""
    if intent.latest:
        _prefer_by_age(corpus, relevance, date.fromisoformat(intent.day) if intent.day else None)
    if intent.earliest:
        _prefer_by_age(corpus, relevance, None, oldest=True)
    if intent.before:
        _prefer_before(corpus, relevance, date.fromisoformat(intent.day))
    if intent.since and PERIOD_WEIGHT > 0:
        _prefer_period(corpus, relevance, intent)
    if intent.history:
        _pull_versions(corpus, relevance, hop, via, sorted(relevance), allowed)
        for node in relevance:
            if corpus.entries[node].status == "superseded":
                relevance[node] *= 1.0 + HISTORY_BOOST
    elif intent.day:
        day = date.fromisoformat(intent.day)
        later = [n for n in sorted(relevance) if _born_after(corpus, n, day)
                 and predecessors(corpus, n)]  # fmt: skip
        _pull_versions(corpus, relevance, hop, via, later, allowed)
        for node in later:
            relevance[node] *= LATER_VERSION_FACTOR


def _prefer_period(corpus: RankCorpus, relevance: dict[str, float], intent: Intent) -> None:
    """Entries dated in the named period weigh more, and a little more the nearer they are."""
    first, last = date.fromisoformat(intent.since), date.fromisoformat(intent.day)
    for node in relevance:
        day = _day(corpus, node)
        if day is None:
            continue
        gap = (first - day).days if day < first else (day - last).days if day > last else 0
        relevance[node] *= 1.0 + PERIOD_WEIGHT * 0.5 ** (gap / PERIOD_HALF_LIFE_DAYS)


def _day(corpus: RankCorpus, node: str) -> date | None:
    entry = corpus.entries[node]
    return day_of(entry.date) or created_day(entry)


def _born_after(corpus: RankCorpus, node: str, day: date) -> bool:
    born = created_day(corpus.entries[node])
    return born is not None and born > day


def _prefer_by_age(
    corpus: RankCorpus, relevance: dict[str, float], until: date | None, oldest: bool = False
) -> None:
    """Newer candidates weigh more (``oldest``: older ones), the age counted from the newest
    (oldest) candidate; with ``until``, only candidates up to it count (later: no boost)."""
    days = {node: _day(corpus, node) for node in relevance}
    if until is not None:
        days = {node: day if day is not None and day <= until else None
                for node, day in days.items()}  # fmt: skip
    known = [d for d in days.values() if d is not None]
    if not known:
        return
    edge = min(known) if oldest else max(known)
    for node, day in days.items():
        if day is not None:
            older, newer = (edge, day) if oldest else (day, edge)
            relevance[node] *= 1.0 + LATEST_WEIGHT * recency(older, newer, LATEST_HALF_LIFE_DAYS)


def _prefer_before(corpus: RankCorpus, relevance: dict[str, float], day: date) -> None:
    """ "before June": the newest candidate up to the day weighs more, later ones less."""
    _prefer_by_age(corpus, relevance, day)
    for node in relevance:
        later = _day(corpus, node)
        if later is not None and later > day:
            relevance[node] *= LATER_VERSION_FACTOR


def _pull_versions(
    corpus: RankCorpus,
    relevance: dict[str, float],
    hop: dict[str, int],
    via: dict[str, str],
    sources: list[str],
    allowed: Callable[[str], bool],
) -> None:
    """Each allowed older version of a source takes the source's relevance when higher."""
    base = {node: relevance[node] for node in sources}
    for node in sources:
        for older in predecessors(corpus, node):
            if base[node] > relevance.get(older, 0.0) and allowed(older):
                if older not in relevance:
                    hop[older], via[older] = 1, node
                relevance[older] = base[node]
