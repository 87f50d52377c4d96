"""Text of the MCP resources and of the ``summarize_project_context`` prompt.

Invariant: every function is one ``Memory`` call rendered with a shared renderer;
none imports ``mcp``, none ranks or picks entries itself (the primer is
``Memory.primer``, the current view ``Memory.current``), and each read is regenerated from the
current state. Resources never write; only the prompt with an intent recalls,
which records access like any recall.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from toon_memory.memory.api import Memory


def entries_text(memory: Memory) -> str:
    """Every active entry (the full dump)."""
    from toon_memory.render.core import render_entries

    entries = memory.entries()
    return f"# toon-memory: {len(entries)} active entries\n\n" + render_entries(entries)


def current_text(memory: Memory) -> str:
    """Pinned entries and entries changed in the last week, newest first (``Memory.current``)."""
    from toon_memory.memory.api import CURRENT_DAYS
    from toon_memory.render.results import current

    return current(memory.current(CURRENT_DAYS), {"days": CURRENT_DAYS}).text


def stats_text(memory: Memory) -> str:
    from toon_memory.render.core import render_stats

    return render_stats(memory.stats())


def primer_text(memory: Memory) -> str:
    """The system primer: categories, top entries, patterns, warnings, decisions."""
    from toon_memory.render.results import primed

    return primed(memory.primer(), {}).text


def prompt_text(memory: Memory, intent: str = "") -> str:
    """The ``summarize_project_context`` prompt: instructions, the primer, entries for an intent."""
    focus = " ".join(intent.split())[:500]  # a prompt argument, not a query of unbounded size
    ask = (
        "Summarize this project's context from its toon-memory below: goals, key decisions, "
        "patterns to follow, warnings, open bugs. Be concise."
    )
    parts = [ask + (f" Focus on: {focus}." if focus else ""), "", primer_text(memory)]
    if focus:
        from toon_memory.render.recall import render_recall

        related = memory.recall(focus, budget="normal", mode="flat")
        parts.extend(["", f"## Entries related to {focus!r}", render_recall(related)])
    return "\n".join(parts)
