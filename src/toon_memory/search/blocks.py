"""The text of one recall hit in each shape: the unit the token budget counts.

Invariant: ``hit_block`` is a pure function of a ``RecallResult`` and a
position (same result, same text, no clock, no I/O). It lives in ``search``,
not in ``render``, because ``Engine.recall`` fits ``budget_tokens`` by
measuring exactly this text; ``render.recall`` joins these blocks into the
answer, so the budgeted answer is always the head of the unbudgeted one.

Shapes (``{x}`` are fields; lines in brackets only when present)::

    normal   [category] key (id)            index   [1] key (id) · category · date · 92%
               content                      tiny    [category] key — first line of content
               File: f | Tags: a;b | Date: d
               [links: k1 k2]               compact [1] category/key
               [↳ explain line]                       content (reached-by-graph: cut…)
    deep     normal + every other set field           tags: a;b · edges: ->2, ->3
"""

from __future__ import annotations

from toon_memory.model.entry import Entry
from toon_memory.search.result import Hit, RecallResult

TINY_CHARS = 160
NEIGHBOUR_CHARS = 80
_DEEP_SKIP = ("id", "category", "key", "content", "file", "tags", "date", "links", "meta")


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
