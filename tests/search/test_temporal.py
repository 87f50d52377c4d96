"""``search.temporal.apply_intent``: only rescales or adds relevance of allowed entries,
never changes the corpus, and follows the documented factors for each intent."""

from __future__ import annotations

import math
import pickle

from tests.search.builders import entry

from toon_memory.search.corpus import Corpus
from toon_memory.search.intent import Intent
from toon_memory.search.temporal import (
    HISTORY_BOOST,
    LATER_VERSION_FACTOR,
    LATEST_WEIGHT,
    PERIOD_HALF_LIFE_DAYS,
    PERIOD_WEIGHT,
    apply_intent,
    predecessors,
)

OLD = entry("db", "Postgres 15", status="superseded", date="2026-05-01",
            created="2026-05-01T00:00:00Z", superseded_on="2026-06-01")  # fmt: skip
NEW = entry("db-new", "Postgres 16", links=["supersedes:db"], date="2026-06-01",
            created="2026-06-01T00:00:00Z")  # fmt: skip
OTHER = entry("cache", "Redis 7", date="2026-07-01", created="2026-07-01T00:00:00Z")


def corpus() -> Corpus:
    made = Corpus()
    for e in (OLD, NEW, OTHER):
        made.upsert(e)
    return made


def run(intent: Intent, relevance: dict[str, float], allowed: set[str] | None = None,
        ) -> tuple[dict[str, float], dict[str, int], dict[str, str]]:  # fmt: skip
    c = corpus()
    before = pickle.dumps(c.__getstate__())
    hop = dict.fromkeys(relevance, 0)
    via: dict[str, str] = {}
    ok = allowed if allowed is not None else {OLD.id, NEW.id, OTHER.id}
    apply_intent(c, relevance, hop, via, intent, lambda n: n in ok)
    assert pickle.dumps(c.__getstate__()) == before, "the corpus changed"
    return relevance, hop, via


def test_predecessors() -> None:
    assert predecessors(corpus(), NEW.id) == [OLD.id]
    assert predecessors(corpus(), OTHER.id) == []


def test_no_intent_changes_nothing() -> None:
    relevance = {NEW.id: 1.0, OTHER.id: 0.5}
    assert run(Intent(), dict(relevance))[0] == relevance


def test_latest_boosts_the_newest_most() -> None:
    relevance, _, _ = run(Intent(latest=True), {NEW.id: 1.0, OTHER.id: 1.0})
    assert math.isclose(relevance[OTHER.id], 1.0 + LATEST_WEIGHT)
    assert 1.0 < relevance[NEW.id] < relevance[OTHER.id]


def test_earliest_boosts_the_oldest_most() -> None:
    relevance, _, _ = run(Intent(earliest=True), {NEW.id: 1.0, OTHER.id: 1.0})
    assert math.isclose(relevance[NEW.id], 1.0 + LATEST_WEIGHT)
    assert relevance[OTHER.id] < relevance[NEW.id]


def test_history_pulls_in_the_older_version_and_boosts_it() -> None:
    relevance, hop, via = run(Intent(history=True), {NEW.id: 1.0})
    assert OLD.id in relevance and via.get(OLD.id) == NEW.id and hop[OLD.id] >= 1
    assert math.isclose(relevance[OLD.id], 1.0 * (1 + HISTORY_BOOST))
    assert relevance[NEW.id] == 1.0


def test_a_disallowed_version_is_never_pulled_in() -> None:
    relevance, _, _ = run(Intent(history=True), {NEW.id: 1.0}, allowed={NEW.id})
    assert set(relevance) == {NEW.id}


def test_a_named_day_before_the_new_version_halves_it_and_pulls_the_old() -> None:
    relevance, _, _ = run(Intent(day="2026-05-15", since="2026-05-15"), {NEW.id: 1.0})
    period = 1 + PERIOD_WEIGHT * 0.5 ** (17 / PERIOD_HALF_LIFE_DAYS)  # 17 days after the day
    assert math.isclose(relevance[NEW.id], period * LATER_VERSION_FACTOR)
    assert OLD.id in relevance and relevance[OLD.id] >= relevance[NEW.id]


def test_before_a_day_demotes_what_came_after() -> None:
    relevance, _, _ = run(Intent(day="2026-06-15"), {NEW.id: 1.0, OTHER.id: 1.0})
    assert relevance[OTHER.id] < relevance[NEW.id]
