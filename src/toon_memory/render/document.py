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

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from toon_memory.search.budget import estimate_tokens

#: Irregular plurals of the nouns a section counts; others add "s".
_PLURALS = {"entry": "entries", "test file": "test files", "memory": "memories"}


@dataclass(frozen=True, slots=True)
class Line:
    """One item of a section: its markdown (may span lines) and how much it is worth keeping."""

    text: str
    value: float


@dataclass
class Section:
    """A titled list of lines; ``noun`` names one line in the "left out" note."""

    title: str
    lines: list[Line] = field(default_factory=list)
    noun: str = "line"
    empty: str = ""

    def add(self, text: str, value: float) -> Section:
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


def _render(
    title: str, sections: Sequence[Section], dropped: set[tuple[int, int]], budget: int,
    short: bool = False,
) -> tuple[str, list[dict[str, Any]], dict[str, int]]:  # fmt: skip
    blocks: list[str] = [title]
    kept: list[dict[str, Any]] = []
    left_out: dict[str, int] = {}
    for s, section in enumerate(sections):
        lines = [line.text for i, line in enumerate(section.lines) if (s, i) not in dropped]
        cut = len(section.lines) - len(lines)
        if cut:
            left_out[section.noun] = left_out.get(section.noun, 0) + cut
        if not section.lines and section.empty:
            lines = [section.empty]
        if lines:
            blocks.append("\n".join([section.title, *lines]) if section.title else "\n".join(lines))
            kept.append({"title": section.title, "lines": lines})
    if left_out:
        blocks.append(left_out_line(left_out, budget, short))
    return "\n\n".join(blocks), kept, left_out


def fit(title: str, sections: Sequence[Section], budget_tokens: int) -> Fitted:
    """The answer within ``budget_tokens`` (see the module docstring)."""
    text, kept, left_out = _render(title, sections, set(), budget_tokens)
    if budget_tokens <= 0 or estimate_tokens(text) <= budget_tokens:
        return Fitted(text, kept, left_out, budget_tokens, estimate_tokens(text))
    order = sorted(
        ((s, i) for s, section in enumerate(sections) for i in range(len(section.lines))),
        key=lambda at: (sections[at[0]].lines[at[1]].value, -at[0], -at[1]),
    )

    def attempt(
        count: int, short: bool = False
    ) -> tuple[str, list[dict[str, Any]], dict[str, int]]:
        return _render(title, sections, set(order[:count]), budget_tokens, short)

    low, high = 0, len(order)  # attempt(low) is over the budget; find the fewest cuts that fit
    while high - low > 1:
        middle = (low + high) // 2
        if estimate_tokens(attempt(middle)[0]) <= budget_tokens:
            high = middle
        else:
            low = middle
    text, kept, left_out = attempt(high)
    if estimate_tokens(text) > budget_tokens:  # even with every line cut: the short note
        text, kept, left_out = attempt(len(order), short=True)
    return Fitted(text, kept, left_out, budget_tokens, estimate_tokens(text))
