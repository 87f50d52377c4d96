"""Errors that quote a caller's value cut it (``errors.quote``): a 10,000-character key, field,
mode or link never comes back whole in a message, on the API or through the CLI."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from tests.conftest import run_cli

from toon_memory import Memory, ToonMemoryError
from toon_memory.errors import quote

HUGE = "k" * 10_000
CALLS: dict[str, Callable[[Memory], object]] = {
    "get": lambda m: m.get(HUGE),
    "pin": lambda m: m.pin(HUGE),
    "tag action": lambda m: m.tag("seed", HUGE, "ci"),
    "state field": lambda m: m.session_state("set", HUGE, "x"),
    "state action": lambda m: m.session_state(HUGE),
    "diff type": lambda m: m.diff(type=HUGE),
    "consolidate mode": lambda m: m.curation.consolidate(mode=HUGE),
    "link kind": lambda m: m.remember("decision", "a", "b", links=[f"{'z' * 10_000}:seed"]),
}


@pytest.mark.parametrize("name", sorted(CALLS))
def test_a_huge_value_is_cut_in_the_message(project: Path, name: str) -> None:
    memory = Memory(project)
    memory.remember("knowledge", "seed", "Something harmless")
    memory.remember("knowledge", "gone", "Soon forgotten")
    memory.forget("gone")
    with pytest.raises(ToonMemoryError) as caught:
        CALLS[name](memory)
    assert len(str(caught.value)) < 400, str(caught.value)[:200]


def test_quote_caps_the_length() -> None:
    assert quote(HUGE) == repr("k" * 40) + " (+9960 more characters)"
    assert quote("short") == "'short'"
    assert quote(("x" * 100,)) == "a list" and quote({"a": HUGE}) == "an object"
    assert quote(10**5000) == "a very large number" and quote(2**100) == repr(2**100)
    assert quote(b"z" * 100) == repr(b"z" * 100)[:37] + "..."
    assert quote("\ud800" * 50).isascii()  # a lone surrogate shows escaped


def test_the_cli_prints_a_short_line_for_a_huge_key(project: Path) -> None:
    Memory(project).remember("knowledge", "seed", "Something harmless")
    done = run_cli("pin", HUGE, project=project)
    assert done.returncode == 2 and "no entry with id or key" in done.stderr
    assert len(done.stderr) < 400
