"""Token-lean text for recall results, in every mode.

Invariant: rendering is a pure function of a ``RecallResult`` (same result,
same text, no clock, no I/O). Each hit's text is ``search.blocks.hit_block``
(its shapes are listed there), the very text the engine's token budget
(``search.budget``) measured, so a budgeted answer is always the head of the
unbudgeted one.
"""

from __future__ import annotations

from toon_memory.search.blocks import hit_block
from toon_memory.search.result import RecallResult


def _footer(result: RecallResult) -> list[str]:
    lines = []
    if result.dropped:
        budget = result.options.budget_tokens
        lines.append(f"… {result.dropped} more over the {budget}-token budget")
    if result.missing:
        lines.append("Not found: " + ", ".join(result.missing))
    return lines


def render_recall(result: RecallResult) -> str:
    """The whole answer as text; an empty result says so in one line."""
    opts = result.options
    blocks = [hit_block(result, i) for i in range(len(result.hits))]
    if opts.ids:
        title = f"Fetched {len(blocks)} entr{'y' if len(blocks) == 1 else 'ies'}:"
        body = ["\n\n".join(blocks)] if blocks else []
        return "\n".join([title, *body, *_footer(result)])
    if not blocks:
        what = f' for "{opts.query}"' if opts.query else ""
        return "\n".join([f"No matching entries{what}.", *_footer(result)])
    if opts.mode == "index":
        head = [f"📇 Memory index ({len(blocks)} of {result.total} entries):", ""]
        return "\n".join(head + blocks + _footer(result))
    sep = "\n" if opts.budget == "tiny" and not opts.compact else "\n\n"
    return sep.join(blocks) + "".join("\n" + line for line in _footer(result))
