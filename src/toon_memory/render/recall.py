"""Token-lean text for recall results, in every mode, and the token budget.

Invariant: rendering is a pure function of a ``RecallResult`` (same result,
same text, no clock, no I/O); ``fit_budget`` keeps a prefix of the hits whose
rendered estimate fits ``budget_tokens``, so a budgeted answer is always the
head of the unbudgeted one.

Shapes (``{x}`` are fields; lines in brackets only when present)::

    normal   [category] key (id)            index   [1] key (id) · category · date · 92%
               content                      tiny    [category] key — first line of content
               File: f | Tags: a;b | Date: d
               [links: k1 k2]               compact [1] category/key
               [↳ explain line]                       content (reached-by-graph: cut…)
    deep     normal + every other set field           tags: a;b · edges: ->2, ->3
"""

from __future__ import annotations

import math
from dataclasses import replace

from toon_memory.model import Entry
from toon_memory.search.result import Edge, Hit, RecallResult

TINY_CHARS = 160
NEIGHBOUR_CHARS = 80
_DEEP_SKIP = ("id", "category", "key", "content", "file", "tags", "date", "links", "meta")


def estimate_tokens(text: str) -> int:
    """A cheap token estimate: ~4 ASCII characters per token, ~1.5 per other character."""
    other = sum(1 for char in text if ord(char) > 127)
    return math.ceil((len(text) - other) / 4 + other / 1.5)


def _cut(text: str, limit: int) -> str:
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1].rstrip() + "…"


def _explain(hit: Hit, result: RecallResult) -> list[str]:
    if not result.options.explain or not hit.reasons:
        return []
    return ["  ↳ " + " · ".join(hit.reasons)]


def _facts(entry: Entry) -> str:
    facts = []
    if entry.file:
        facts.append(f"File: {entry.file}")
    if entry.tags:
        facts.append(f"Tags: {';'.join(entry.tags)}")
    if entry.date:
        facts.append(f"Date: {entry.date}")
    return " | ".join(facts)


def _header(entry: Entry) -> str:
    pin = f" 📌{entry.priority}" if entry.priority > 0 else ""
    return f"[{entry.category}] {entry.key} ({entry.id}){pin}"


def _deep_lines(hit: Hit) -> list[str]:
    data = hit.entry.to_dict()
    lines = [f"  {name}: {value}" for name, value in data.items()
             if name not in _DEEP_SKIP and value not in ("", [], {}, None)]  # fmt: skip
    if hit.entry.meta:
        lines.append(f"  meta: {data['meta']}")
    lines.append(f"  score: {hit.score:.4f} · relevance {hit.relevance}%")
    return lines


def _normal(hit: Hit, result: RecallResult, deep: bool) -> str:
    entry = hit.entry
    lines = [_header(entry), f"  {entry.content}"]
    facts = _facts(entry)
    if facts:
        lines.append(f"  {facts}")
    if entry.links:
        lines.append(f"  links: {' '.join(entry.links)}")
    if deep:
        lines.extend(_deep_lines(hit))
    return "\n".join(lines + _explain(hit, result))


def _tiny(hit: Hit, result: RecallResult) -> str:
    entry = hit.entry
    first = entry.content.strip().splitlines()[0] if entry.content.strip() else ""
    line = f"[{entry.category}] {entry.key} — {_cut(first, TINY_CHARS)}"
    return "\n".join([line, *_explain(hit, result)])


def _compact(position: int, hit: Hit, result: RecallResult) -> str:
    entry = hit.entry
    content = entry.content if hit.hop <= 0 else _cut(entry.content, NEIGHBOUR_CHARS)
    lines = [f"[{position + 1}] {entry.category}/{entry.key}", f"  {' '.join(content.split())}"]
    facts = []
    if entry.tags:
        facts.append(f"tags: {';'.join(entry.tags)}")
    edges = [f"->{edge.target + 1}" for edge in result.edges_of(position)]
    if edges:
        facts.append(f"edges: {', '.join(edges)}")
    if facts:
        lines.append("  " + " · ".join(facts))
    return "\n".join(lines + _explain(hit, result))


def _index_line(position: int, hit: Hit) -> str:
    e = hit.entry
    return f"[{position + 1}] {e.key} ({e.id}) · {e.category} · {e.date or '-'} · {hit.relevance}%"


def hit_block(result: RecallResult, position: int) -> str:
    """The text of one hit, in the shape the result's options ask for."""
    hit, opts = result.hits[position], result.options
    if opts.mode == "index" and not opts.ids:
        return _index_line(position, hit)
    if opts.compact:
        return _compact(position, hit, result)
    if opts.budget == "tiny":
        return _tiny(hit, result)
    return _normal(hit, result, deep=opts.budget == "deep")


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


def fit_budget(result: RecallResult) -> RecallResult:
    """Keep hits greedily, in rank order, while the estimate stays within ``budget_tokens``."""
    budget = result.options.budget_tokens
    if budget <= 0 or not result.hits:
        return result
    spent, keep = 0, 0
    for position in range(len(result.hits)):
        cost = estimate_tokens(hit_block(result, position)) + 1
        if spent + cost > budget:
            break
        spent += cost
        keep += 1
    if keep == len(result.hits):
        return result
    edges = tuple(Edge(e.source, e.target, e.kind) for e in result.edges
                  if e.source < keep and e.target < keep)  # fmt: skip
    return replace(result, hits=result.hits[:keep], edges=edges, dropped=len(result.hits) - keep)
