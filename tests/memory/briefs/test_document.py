"""Fitting a markdown answer to a token budget: never over, lowest value cut first, and said."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from toon_memory.render.document import Section, fit, left_out_line, plural
from toon_memory.rules.budgets import MIN_BUDGET_TOKENS
from toon_memory.search.budget import estimate_tokens

TEXT = st.text(
    alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), min_size=1, max_size=80
)
LINES = st.lists(st.tuples(TEXT, st.floats(-100, 100, allow_nan=False)), max_size=25)
SECTIONS = st.lists(
    st.tuples(st.sampled_from(["", "## A", "## Files"]), LINES, st.sampled_from(["entry", "file"]),
              st.sampled_from(["", "- none"])),
    max_size=5,
)  # fmt: skip


def _sections(raw: list[tuple[str, list[tuple[str, float]], str, str]]) -> list[Section]:
    found = []
    for title, lines, noun, empty in raw:
        section = Section(title, noun=noun, empty=empty)
        for text, value in lines:
            section.add("- " + text, value)
        found.append(section)
    return found


@settings(max_examples=300, deadline=None)
@given(SECTIONS, st.integers(MIN_BUDGET_TOKENS, 800))
def test_the_text_never_exceeds_the_budget_and_says_what_it_cut(
    raw: list[tuple[str, list[tuple[str, float]], str, str]], budget: int
) -> None:
    sections = _sections(raw)
    fitted = fit("# Title", sections, budget)
    assert estimate_tokens(fitted.text) <= budget
    assert fitted.tokens == estimate_tokens(fitted.text)
    total = sum(len(s.lines) for s in sections)
    kept = sum(len(s["lines"]) for s in fitted.sections) - sum(
        1 for s in sections if not s.lines and s.empty
    )
    assert sum(fitted.left_out.values()) == total - kept
    assert ("left out" in fitted.text) == bool(fitted.left_out)


@settings(max_examples=200, deadline=None)
@given(SECTIONS, st.integers(MIN_BUDGET_TOKENS, 400))
def test_lines_are_cut_lowest_value_first(
    raw: list[tuple[str, list[tuple[str, float]], str, str]], budget: int
) -> None:
    sections = []
    for s, (title, lines, noun, _) in enumerate(raw):
        section = Section(title, noun=noun)
        for i, (text, value) in enumerate(lines):
            section.add(f"- {s}.{i} {text}", value)
        sections.append(section)
    fitted = fit("# Title", sections, budget)
    shown = {line for s in fitted.sections for line in s["lines"]}
    values = [(line.value, line.text in shown) for sec in sections for line in sec.lines]
    kept = [value for value, is_kept in values if is_kept]
    cut = [value for value, is_kept in values if not is_kept]
    if kept and cut:
        assert min(kept) >= max(cut)


def test_no_budget_keeps_everything() -> None:
    section = Section("## Entries", noun="entry")
    for i in range(500):
        section.add(f"- entry number {i} with some words", -i)
    fitted = fit("# All", [section], 0)
    assert fitted.left_out == {} and "left out" not in fitted.text
    assert fitted.text.count("\n- entry number") == 500


def test_a_cut_names_what_and_how_many() -> None:
    entries = Section("## Entries", noun="entry")
    commits = Section("## Commits", noun="commit")
    for i in range(40):
        entries.add(f"- [decision] key-{i}: a decision about the cache layer number {i}", 50 - i)
        commits.add(f"- abc{i:04d} 2026-07-15 Ada: change {i}", 30 - i)
    fitted = fit("# Brief", [entries, commits], 200)
    assert estimate_tokens(fitted.text) <= 200
    assert "key-0:" in fitted.text and "key-39" not in fitted.text
    assert fitted.left_out["commit"] == 40  # every commit is worth less than any entry
    assert fitted.text.endswith(left_out_line(fitted.left_out, 200))
    assert fitted.text.splitlines()[-1].startswith("… left out to fit the 200-token budget: ")
    assert "40 commits" in fitted.text
    assert "## Commits" not in fitted.text  # an emptied section loses its header


def test_lines_left_out_before_fitting_are_counted_not_shown() -> None:
    section = Section("## Entries", noun="entry", empty="- none", more=7)
    fitted = fit("# Export", [section.add("- kept", 1)], 100)
    assert (
        fitted.text
        == "# Export\n\n## Entries\n- kept\n\n… left out to fit the 100-token budget: 7 entries"
    )
    only_more = fit("# Export", [Section("## Entries", noun="entry", empty="- none", more=3)], 100)
    assert "## Entries" not in only_more.text and only_more.left_out == {"entry": 3}


def test_an_empty_line_stands_for_an_empty_section() -> None:
    fitted = fit("# Diff", [Section("## Commits", noun="commit", empty="- none")], 60)
    assert fitted.text == "# Diff\n\n## Commits\n- none"


def test_when_nothing_fits_the_title_and_a_short_note_remain() -> None:
    section = Section("## Long", noun="entry").add("- " + "word " * 400, 1)
    fitted = fit("# A title", [section], MIN_BUDGET_TOKENS)
    assert estimate_tokens(fitted.text) <= MIN_BUDGET_TOKENS
    assert fitted.text.startswith("# A title") and fitted.left_out == {"entry": 1}


def test_plurals() -> None:
    assert plural("entry", 1) == "1 entry" and plural("entry", 2) == "2 entries"
    assert plural("commit", 1_500) == "1,500 commits"
    assert plural("test file", 3) == "3 test files"
