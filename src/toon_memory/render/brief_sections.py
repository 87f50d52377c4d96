"""The sections every brief shares: the memory (the primer) and the active sessions.

Invariant: pure functions from core results to ``render.document`` sections;
the values they give lines are the scale every brief uses (facts ~100, the
best memories ~70, sessions ~60, long lists lower). Imported by
``render.context`` and by the primer's renderer (``render.results.primed``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from toon_memory.render import lines as item
from toon_memory.render.document import Fitted, Section, fit, plural

if TYPE_CHECKING:
    from toon_memory.memory.briefs.results import SessionView
    from toon_memory.memory.recaller import Primer

#: Entries per category section in a brief (the primer itself lists up to its limit).
BRIEF_SECTION = 3
SECTION_TITLES = {"pattern": "Patterns", "warning": "Warnings", "decision": "Decisions",
                  "bug": "Bugs", "knowledge": "Knowledge"}  # fmt: skip
#: Value of the first line of each primer section (each next line is worth one less).
_PRIMER_VALUES = {"top": 70.0, "warning": 52.0, "pattern": 48.0, "decision": 44.0}


def ranked(title: str, texts: list[str], first: float, step: float, noun: str,
           empty: str = "") -> Section:  # fmt: skip
    """A section whose lines are worth ``first``, ``first - step``, ... in order."""
    section = Section(title, noun=noun, empty=empty)
    for i, text in enumerate(texts):
        section.add(text, first - step * i)
    return section


def memory_sections(
    primer: Primer, *, with_files: bool = False, per_section: int | None = None
) -> list[Section]:
    """Counts, the top entries, the category sections (at most ``per_section`` entries each)
    and, ``with_files``, the files changed in this session."""
    total = sum(primer.counts.values())
    head = Section("## Memory", noun="line").add(
        f"- {total:,} entries ({item.counts_text(primer.counts)})", 95
    )
    found = [head, ranked("## Top entries", [item.entry_item(e) for e in primer.top],
                           _PRIMER_VALUES["top"], 1, "entry")]  # fmt: skip
    for category, entries in primer.sections.items():
        title = f"## {SECTION_TITLES.get(category, category.capitalize())}"
        first = _PRIMER_VALUES.get(category, 40.0)
        shown = entries[:per_section] if per_section is not None else entries
        found.append(ranked(title, [item.entry_item(e) for e in shown], first, 1, "entry"))
    if with_files and primer.session_files:
        files = [f"- {name}" for name in primer.session_files]
        found.append(ranked("## Files changed in this session", files, 30, 0.1, "file"))
    return found


def session_section(view: SessionView) -> Section:
    """Active sessions and soft conflicts (conflicts first: they need attention)."""
    count = len(view.sessions)
    section = Section("## Sessions", noun="session").add(
        f"- Branch {view.branch or '(no git)'}; {count} active within "
        f"{view.window_minutes} min; {plural('soft conflict', len(view.conflicts))}", 80
    )  # fmt: skip
    for i, (file, ids) in enumerate(view.conflicts.items()):
        section.add(item.conflict_item(file, ids), 64 - 0.5 * i)
    for i, session in enumerate(view.sessions):
        section.add(item.session_item(session, view.now), 60 - 0.5 * i)
    return section


def primer_document(primer: Primer) -> Fitted:
    """The primer as ``memory_primer`` and ``toon://memory/summaries`` show it."""
    return fit("# Project memory", memory_sections(primer, with_files=True), primer.budget_tokens)
