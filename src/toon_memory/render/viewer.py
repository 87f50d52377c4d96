"""The text and data of ``memory_visualize`` and of ``toon-memory viewer --export``.

Invariant: pure (no I/O). The text always names the ``toon-memory viewer``
command, so a host without MCP Apps still gets a useful answer; the data is
what the inline viewer highlights (ids and keys of the matches, rank order).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from toon_memory.render.results import Call, Rendered

if TYPE_CHECKING:
    from toon_memory.search import RecallResult

#: Matches named in the text (the rest are only highlighted in the graph).
NAMED = 5
HOW_TO = (
    "MCP Apps hosts show the interactive graph inline; elsewhere run `toon-memory viewer` "
    "(live, in the browser) or `toon-memory viewer --export view.html`."
)


def visualized(result: RecallResult, call: Call) -> Rendered:
    """``memory_visualize``: what matched the query, and how to open the viewer."""
    query = str(call.get("query") or "").strip()
    if not query:
        return Rendered(f"🧠 Memory graph viewer. {HOW_TO}", {"query": "", "results": []})
    entries = result.entries
    found = [{"id": e.id, "key": e.key, "category": e.category} for e in entries]
    if not entries:
        head = f'🧠 No entries match "{query}".'
    else:
        keys = ", ".join(e.key for e in entries[:NAMED])
        more = f" and {len(entries) - NAMED} more" if len(entries) > NAMED else ""
        noun = "entry matches" if len(entries) == 1 else "entries match"
        head = f'🧠 {len(entries)} {noun} "{query}": {keys}{more} (highlighted in the graph).'
    return Rendered(f"{head} {HOW_TO}", {"query": query, "results": found})


def page_exported(payload: Mapping[str, Any], call: Call) -> Rendered:
    """``toon-memory viewer --export``: the file written (``call["path"]``) and what it holds."""
    entries, links = len(payload["entries"]), len(payload["edges"])
    text = (
        f"🧠 Wrote {call['path']} ({entries} entries, {links} links): "
        "open it in any browser, no network needed."
    )
    return Rendered(text, {"path": str(call["path"]), "entries": entries, "links": links})
