"""One path normaliser: line ranges, ``./`` and backslashes never split one file in two."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tests.search.builders import TODAY, entry, recall

from toon_memory.rules.scoring import evidence_level
from toon_memory.search import Engine, RecallOptions
from toon_memory.search.paths import named_paths, names_file, normalise_path, path_matches


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("src/a.py", "src/a.py"),
        ("src/a.py:10", "src/a.py"),
        ("src/a.py:10-20", "src/a.py"),
        ("src/a.py:10:5", "src/a.py"),
        ("  ./src/a.py:7 ", "src/a.py"),
        ("src\\lib\\a.py:3-4", "src/lib/a.py"),
        ("src//lib/./a.py", "src/lib/a.py"),
        ("src/lib/", "src/lib"),
        (".github/workflows/ci.yml", ".github/workflows/ci.yml"),
        ("/abs/a.py:1", "/abs/a.py"),
        ("src/lib/**", "src/lib/**"),
        ("./", ""),
        ("", ""),
    ],
)
def test_normalise_path(raw: str, clean: str) -> None:
    assert normalise_path(raw) == clean


@given(st.text(alphabet="ab./\\:-19 *", max_size=30))
def test_normalise_path_is_idempotent(raw: str) -> None:
    once = normalise_path(raw)
    assert normalise_path(once) == once


def test_path_matches_line_ranges_on_either_side() -> None:
    assert path_matches("src/a.py:10-20", "src/a.py")
    assert path_matches("src/a.py:10-20", "./src/")
    assert path_matches("src\\a.py:3", "src/*.py")
    assert path_matches("src/a.py", "src/a.py:10-20")
    assert not path_matches("src/ab.py:1", "src/a")
    assert not path_matches("src/a.py", "")


def _ranged() -> Engine:
    text = "Retry logic for the HTTP client"
    return Engine.build([
        entry("a-retry", text, file="src/a.py:10-20"), entry("b-retry", text, file="src/b.py"),
    ])  # fmt: skip


def test_line_range_entry_falls_under_path_scope() -> None:
    engine = _ranged()
    for scope in ("src/a.py", "./src/a.py", "src/", "src/*.py", "src/a.py:1-2"):
        found = engine.recall(RecallOptions(query="retry", path_scope=scope), today=TODAY)
        assert "a-retry" in found.keys, scope
    only_b = engine.recall(RecallOptions(query="retry", path_scope="src/b.py"), today=TODAY)
    assert only_b.keys == ["b-retry"]


def test_line_range_entry_gets_the_session_bias() -> None:
    text = "Retry logic for the HTTP client"
    engine = Engine.build([
        entry("a-retry", text, file="src/a.py:1-9"), entry("b-retry", text, file="src/b.py:10-20"),
    ])  # fmt: skip
    plain = engine.recall(RecallOptions(query="retry"), today=TODAY)
    assert plain.keys == ["a-retry", "b-retry"]  # equal scores: by key
    opts = RecallOptions(query="retry", session_bias=True)
    for changed in ("src/b.py", "./src/b.py", "src\\b.py"):
        biased = engine.recall(opts, today=TODAY, session_files={changed, "README.md"})
        assert biased.keys == ["b-retry", "a-retry"], changed
        assert biased.hits[0].score == pytest.approx(1.15 * plain.hits[1].score)
    assert engine.recall(opts, today=TODAY, session_files={"src/c.py"}).keys == plain.keys


def test_entry_path_scope_with_line_range_gets_the_path_bonus() -> None:
    text = "Retry logic for the HTTP client"
    engine = Engine.build([
        entry("a-rule", text, path_scope="src/a.py:10-20"), entry("b-rule", text),
    ])  # fmt: skip
    plain = engine.recall(RecallOptions(query="retry"), today=TODAY)
    scoped = engine.recall(RecallOptions(query="retry", path_scope="src/a.py"), today=TODAY)
    assert scoped.keys == ["a-rule"]
    before = next(h.score for h in plain.hits if h.entry.key == "a-rule")
    assert scoped.hits[0].score > before


def test_evidence_checks_the_file_without_its_line_range(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "a.py").write_text("x = 1\n")
    checked: list[str] = []

    def exists(path: str) -> bool:
        checked.append(path)
        return (tmp_path / path).is_file()

    assert evidence_level(entry("a", "x", file="./src/a.py:10-20"), [], exists) == "verified"
    assert evidence_level(entry("b", "x", file="src\\b.py:3"), [], exists) == "unverified"
    assert checked == ["src/a.py", "src/b.py"]


@pytest.mark.parametrize(
    ("query", "named"),
    [
        ("anything to know before editing src/carriers/dhl.py", {"src/carriers/dhl.py"}),
        ("bug at dhl.py:10-20", {"dhl.py"}),
        ("see docs\\runbook.md first", {"docs/runbook.md"}),
        ("upgrade to Python 3.12", set()),
        ("./ and ../", set()),
    ],
)
def test_named_paths(query: str, named: set[str]) -> None:
    assert named_paths(query) == frozenset(named)


@given(st.text(max_size=80))
def test_named_paths_are_normalised_and_never_raise(text: str) -> None:
    for path in named_paths(text):
        assert path == normalise_path(path) and path


def test_names_file_matches_either_side_at_a_slash() -> None:
    named = frozenset({"dhl.py", "src/core/logging.py"})
    assert names_file("src/carriers/dhl.py", named)
    assert names_file("./src/carriers/dhl.py:4", named)
    assert names_file("core/logging.py", named)
    assert not names_file("src/carriers/xdhl.py", named)
    assert not names_file("", named) and not names_file("dhl.py", frozenset())


def test_a_query_naming_a_file_prefers_the_entries_about_it() -> None:
    engine = Engine.build([
        entry("carrier-adapters", "Each carrier (DHL, UPS) has an adapter under src/carriers/.",
              file="src/carriers/base.py"),
        entry("dhl-timezone", "DHL returns local times without offset.",
              file="src/carriers/dhl.py", category="bug"),
    ])  # fmt: skip
    assert recall(engine, "DHL carrier adapter").keys[0] == "carrier-adapters"
    assert recall(engine, "DHL carrier adapter src/carriers/dhl.py").keys[0] == "dhl-timezone"
    assert recall(engine, "before editing dhl.py").keys[0] == "dhl-timezone"
