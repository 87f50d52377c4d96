"""A markdown answer made of sections of valued lines, fitted to a token budget.

Invariant: ``fit`` returns text whose ``estimate_tokens`` (the estimator
recall uses) is at most the budget (0: no limit), measured on the very text
it returns. It drops lines lowest value first (among equal values, the later
line first), drops the header of a section left with no line, and ends with
one line naming what it left out ("… left out to fit the 1,500-token budget:
12 entries, 3 commits"). The title is always kept; so is a section's
``empty`` line (it stands for nothing to cut). Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from toon_memory.search.budget import estimate_tokens

#: Irregular plurals of the nouns a section counts; others add "s".
_PLURALS = {"entry": "entries", "test file": "test files", "memory": "memories"}


class Line:
    """One item of a section: its markdown (may span lines) and how much it is worth keeping.

    The text may be given as a function, called only if the line is measured
    or shown: a 10,000-line answer cut to a budget formats only what it keeps.
    """

    __slots__ = ("_source", "_text", "value")

    def __init__(self, text: str | Callable[[], str], value: float) -> None:
        self._source = text
        self._text: str | None = None
        self.value = value

    @property
    def text(self) -> str:
        if self._text is None:
            source = self._source
            self._text = source if isinstance(source, str) else source()
        return self._text


@dataclass
class Section:
    """A titled list of lines; ``noun`` names one line in the "left out" note."""

    title: str
    lines: list[Line] = field(default_factory=list)
    noun: str = "line"
    empty: str = ""
    #: Lines left out before fitting (worth less than any listed one): counted, never shown.
    more: int = 0

    def add(self, text: str | Callable[[], str], value: float) -> Section:
        self.lines.append(Line(text, value))
        return self


@dataclass(frozen=True)
class Fitted:
    """The fitted answer: its text, what was kept per section, and what was left out."""

    text: str
    sections: list[dict[str, Any]]
    left_out: dict[str, int]
    budget_tokens: int
    tokens: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "sections": self.sections, "left_out": self.left_out,
            "budget_tokens": self.budget_tokens, "tokens": self.tokens,
        }  # fmt: skip


def plural(noun: str, count: int) -> str:
    word = noun if count == 1 else _PLURALS.get(noun, noun + "s")
    return f"{count:,} {word}"


def left_out_line(left_out: dict[str, int], budget: int, short: bool = False) -> str:
    """The note that ends a cut answer."""
    if short:
        return f"… {plural('line', sum(left_out.values()))} left out (budget {budget:,})"
    what = ", ".join(plural(noun, count) for noun, count in left_out.items())
    return f"… left out to fit the {budget:,}-token budget: {what}"


Kept = dict[int, list[int]]


def _render(
    title: str, sections: Sequence[Section], kept: Kept | None, budget: int, short: bool = False
) -> tuple[str, list[dict[str, Any]], dict[str, int]]:
    """The text with the ``kept`` lines of each section (``None``: every line)."""
    blocks: list[str] = [title]
    shown: list[dict[str, Any]] = []
    left_out: dict[str, int] = {}
    for s, section in enumerate(sections):
        at = range(len(section.lines)) if kept is None else sorted(kept.get(s, ()))
        lines = [section.lines[i].text for i in at]
        cut = len(section.lines) - len(lines) + section.more
        if cut:
            left_out[section.noun] = left_out.get(section.noun, 0) + cut
        if not section.lines and not section.more and section.empty:
            lines = [section.empty]
        if lines:
            blocks.append("\n".join([section.title, *lines]) if section.title else "\n".join(lines))
            shown.append({"title": section.title, "lines": lines})
    if left_out:
        blocks.append(left_out_line(left_out, budget, short))
    return "\n\n".join(blocks), shown, left_out


def _kept(order: Sequence[tuple[int, int]], count: int) -> Kept:
    kept: Kept = {}
    for s, i in order[:count]:
        kept.setdefault(s, []).append(i)
    return kept


def _first_guess(title: str, sections: Sequence[Section], order: Sequence[tuple[int, int]],
                 budget: int) -> int:  # fmt: skip
    """How many lines of ``order`` fit by an upper bound of their cost (each line's estimate
    plus one token for its separator, each section header when first used)."""
    spent = estimate_tokens(title) + estimate_tokens(left_out_line({"line": 10**6}, budget)) + 2
    spent += sum(
        estimate_tokens(s.empty) + 2 for s in sections if not s.lines and not s.more and s.empty
    )
    opened: set[int] = set()
    for count, (s, i) in enumerate(order):
        cost = estimate_tokens(sections[s].lines[i].text) + 1
        if s not in opened:
            cost += estimate_tokens(sections[s].title) + 2
        if spent + cost > budget:
            return count
        spent += cost
        opened.add(s)
    return len(order)


def fit(title: str, sections: Sequence[Section], budget_tokens: int) -> Fitted:
    """The answer within ``budget_tokens`` (see the module docstring).

    Lines are kept best first while an upper bound of their cost fits, then
    the exact text is measured: lines are dropped while it is over the
    budget, and the most that still fit are found by bisection. Only lines
    that may be kept are ever measured, so a 10,000-line answer costs little
    more than its sort.
    """
    if budget_tokens <= 0:
        text, shown, left_out = _render(title, sections, None, budget_tokens)
        return Fitted(text, shown, left_out, budget_tokens, estimate_tokens(text))
    order = sorted(
        ((s, i) for s, section in enumerate(sections) for i in range(len(section.lines))),
        key=lambda at: (-sections[at[0]].lines[at[1]].value, at[0], at[1]),
    )

    def attempt(count: int) -> tuple[str, list[dict[str, Any]], dict[str, int]]:
        return _render(title, sections, _kept(order, count), budget_tokens)

    count = _first_guess(title, sections, order, budget_tokens)
    text, shown, left_out = attempt(count)
    while count > 0 and estimate_tokens(text) > budget_tokens:
        count -= 1
        text, shown, left_out = attempt(count)
    spare = budget_tokens - estimate_tokens(text)
    if spare >= 0 and count < len(order):  # the bound was loose: the most lines that still fit
        low, high = count, min(len(order), count + 4 * spare + 1)  # a line adds >= 1/2 token
        while high > low:
            middle = (low + high + 1) // 2
            trial = attempt(middle)
            if estimate_tokens(trial[0]) <= budget_tokens:
                low, (text, shown, left_out) = middle, trial
            else:
                high = middle - 1
    if estimate_tokens(text) > budget_tokens:  # even with every line cut: the short note
        text, shown, left_out = _render(title, sections, {}, budget_tokens, short=True)
    return Fitted(text, shown, left_out, budget_tokens, estimate_tokens(text))
