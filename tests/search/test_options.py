"""``search.options.RecallOptions.validated``: either an InputError naming the bad field, or
options whose every field is in range with the documented defaults resolved."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toon_memory.errors import InputError
from toon_memory.search.options import (
    BUDGETS,
    GRAPH_HOPS,
    INDEX_LIMIT,
    MAX_LIMIT,
    MODES,
    RecallOptions,
    split_ids,
)


@pytest.mark.parametrize(
    ("mode", "budget", "hops", "limit"),
    [("flat", "tiny", 1, 3), ("flat", "normal", 1, 10), ("flat", "deep", 1, 20),
     ("graph", "tiny", 2, 3), ("graph", "normal", 2, 6), ("graph", "deep", 2, 12),
     ("index", "normal", 1, INDEX_LIMIT), ("index", "tiny", 1, INDEX_LIMIT)],
)  # fmt: skip
def test_defaults_by_mode_and_budget(mode: str, budget: str, hops: int, limit: int) -> None:
    opts = RecallOptions(mode=mode, budget=budget).validated()
    assert (opts.hops, opts.limit) == (hops, limit)


def test_empty_mode_and_budget_are_the_defaults() -> None:
    opts = RecallOptions(mode="", budget="").validated()
    assert (opts.mode, opts.budget, opts.limit) == ("flat", "normal", 10)


def test_normalisation() -> None:
    opts = RecallOptions(query="  db port ", ids=" a1b2c3d4, use-zod;x a1b2c3d4",
                         tags=(" API ", "", "Db"), path_scope=" src/ ", as_of="2026-07-01",
                         from_date="2026-01-01", to_date="2026-02-01",
                         category="bug").validated()  # fmt: skip
    assert opts.query == "db port" and opts.ids == ("a1b2c3d4", "use-zod", "x")
    assert opts.tags == ("api", "db") and opts.path_scope == "src/"
    assert opts.as_of_date is not None and opts.as_of_date.isoformat() == "2026-07-01"
    assert RecallOptions(tags="A, b").validated().tags == ("a", "b")  # type: ignore[arg-type]
    assert RecallOptions().validated().as_of_date is None


@pytest.mark.parametrize(
    ("changes", "field"),
    [({"mode": "fuzzy"}, "mode"), ({"budget": "huge"}, "budget"), ({"hops": 3}, "hops"),
     ({"hops": 0}, "hops"), ({"limit": 0}, "limit"), ({"limit": MAX_LIMIT + 1}, "limit"),
     ({"budget_tokens": 10}, "budget_tokens"), ({"budget_tokens": -1}, "budget_tokens"),
     ({"explain": "yes"}, "explain"), ({"rrf": 1}, "rrf"), ({"compact": None}, "compact"),
     ({"intent": "false"}, "intent"), ({"as_of": "July"}, "as_of"),
     ({"from_date": "2026-1-1"}, "from_date"), ({"to_date": "x"}, "to_date"),
     ({"from_date": "2026-02-02", "to_date": "2026-02-01"}, "to_date"),
     ({"category": "idea"}, "category"), ({"words": -1}, "words"), ({"words": "all"}, "words"),
     ({"pool": 0}, "pool"), ({"pool": True}, "pool"), ({"pool": "all"}, "pool")],
)  # fmt: skip
def test_a_bad_value_names_its_field(changes: dict[str, object], field: str) -> None:
    with pytest.raises(InputError) as caught:
        RecallOptions(**changes).validated()  # type: ignore[arg-type]
    assert caught.value.field == field


@given(st.sampled_from(MODES), st.sampled_from(BUDGETS), st.none() | st.integers(1, GRAPH_HOPS),
       st.none() | st.integers(1, MAX_LIMIT), st.sampled_from([0, 50, 1000]))  # fmt: skip
def test_validated_is_in_range_and_idempotent(mode: str, budget: str, hops: int | None,
                                              limit: int | None, tokens: int) -> None:  # fmt: skip
    opts = RecallOptions(mode=mode, budget=budget, hops=hops, limit=limit,
                         budget_tokens=tokens).validated()  # fmt: skip
    assert opts.hops is not None and 1 <= opts.hops <= GRAPH_HOPS
    assert opts.limit is not None and 1 <= opts.limit <= MAX_LIMIT
    assert opts.hops == (hops if hops is not None else (2 if mode == "graph" else 1))
    assert opts.validated() == opts


@given(st.lists(st.text(st.characters(blacklist_categories=("Cs",)), max_size=6), max_size=6))
def test_split_ids_keeps_order_drops_blanks_and_dupes(items: list[str]) -> None:
    ids = split_ids(items)
    expected = tuple(dict.fromkeys(i.strip() for i in items if i.strip()))
    assert ids == expected
    assert split_ids(None) == () and split_ids("") == ()
