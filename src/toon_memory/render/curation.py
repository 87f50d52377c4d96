"""Renderers of the curation tools: consolidate, reflect, promote, compress.

Invariant: the CLI and the MCP server show these results only through the
functions here, each ``(result, call) -> Rendered``; text lists at most
``MAX_LINES`` items and says how many it left out, the data holds them all.
Pure: no I/O.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from toon_memory.render.results import Rendered

if TYPE_CHECKING:
    from toon_memory.memory.curation import CompressResult, ConsolidationReport, PromoteReport
    from toon_memory.rules.curation import Attention, Reflection, Removal

Call = Mapping[str, Any]
#: Items listed in a text answer; the rest are counted.
MAX_LINES = 50
RESTORE_HINT = "Bring any back with memory_forget(key, action=restore)."


def _capped(lines: list[str], what: str) -> list[str]:
    if len(lines) <= MAX_LINES:
        return lines
    return [*lines[:MAX_LINES], f"  … {len(lines) - MAX_LINES} more {what} (see --json)"]


def _count(n: int, noun: str) -> str:
    """``1 entry``, ``2 entries``, ``3 drafts``."""
    plural = noun[:-1] + "ies" if noun.endswith("y") else noun + "s"
    return f"{n} {noun if n == 1 else plural}"


def _be(n: int, dry: bool) -> str:
    return "would be" if dry else "was" if n == 1 else "were"


def _removal_line(removal: Removal, scored: bool) -> str:
    head = f"  - [{removal.entry.category}] {removal.entry.key}"
    if removal.keep is None:
        return f"{head} ({removal.action}: {removal.reason})"
    score = f"{removal.similarity:.0%}; " if scored else ""
    return f"{head} → {removal.keep.key} ({score}{removal.reason})"


def consolidated(report: ConsolidationReport, call: Call) -> Rendered:
    plan, dry = report.plan, report.dry_run
    head = f"🧹 consolidate {plan.mode}" + (" (dry run)" if dry else "")
    if not plan:
        return Rendered(f"{head}: nothing to do.", report.to_dict())
    gone, kept = len(plan.removals), len(plan.updates)
    summary = f"{head}: {_count(gone, 'entry')} {_be(gone, dry)} removed (soft)"
    if kept:
        summary += f"; {_count(kept, 'kept entry')} {_be(kept, dry)} given merged tags/links"
    scored = plan.mode in ("identical", "similar")
    lines = [summary, *_capped([_removal_line(r, scored) for r in plan.removals], "removals")]
    if dry:
        lines.append("Apply with dry_run=false (CLI: --apply). " + RESTORE_HINT)
    else:
        lines.append(RESTORE_HINT)
    return Rendered("\n".join(lines), report.to_dict())


def _attention_line(rank: int, item: Attention) -> str:
    entry = item.entry
    return f"  {rank}. [{entry.category}] {entry.key} ({item.score:.2f}): {'; '.join(item.reasons)}"


def reflection_dict(reflection: Reflection) -> dict[str, Any]:
    return {
        "attention": [a.to_dict() for a in reflection.attention],
        "tag_pairs": [{"tags": [a, b], "count": n} for a, b, n in reflection.tag_pairs],
        "contradictions": [
            {"key": e.key, "category": e.category, "conflicts_with": g.key,
             "conflict_category": g.category}
            for e, g in reflection.contradictions
        ],
    }  # fmt: skip


def reflected(reflection: Reflection, call: Call) -> Rendered:
    items = reflection.attention
    lines = [f"🪞 Reflection: {_count(len(items), 'entry')} need attention" if items
             else "🪞 Reflection: no entry needs attention"]  # fmt: skip
    lines += [_attention_line(n, a) for n, a in enumerate(items, 1)]
    if reflection.tag_pairs:
        pairs = ", ".join(f"{a}+{b} ({n})" for a, b, n in reflection.tag_pairs)
        lines.append(f"Tags used together: {pairs}")
    if reflection.contradictions:
        lines.append(f"Possible contradictions ({len(reflection.contradictions)}):")
        lines += _capped(
            [f"  - [{e.category}] {e.key} vs [{g.category}] {g.key}"
             for e, g in reflection.contradictions],
            "contradictions",
        )  # fmt: skip
    return Rendered("\n".join(lines), reflection_dict(reflection))


def promoted(report: PromoteReport, call: Call) -> Rendered:
    plan, dry = report.plan, report.dry_run
    head = "⬆️ promote" + (" (dry run)" if dry else "")
    if not plan.promote and not plan.duplicates:
        return Rendered(f"{head}: no drafts (confidence <= 0.65).", report.to_dict())
    verb = "would become" if dry else "became"
    lines = [f"{head}: {_count(len(plan.promote), 'draft')} {verb} full entries "
             f"(confidence {plan.confidence:.2f}); {len(plan.duplicates)} held back as duplicates"]  # fmt: skip
    lines += _capped(
        [f"  - [{e.category}] {e.key} ({e.confidence:.2f} → {plan.confidence:.2f})"
         for e in plan.promote],
        "drafts",
    )  # fmt: skip
    lines += _capped(
        [f"  held back: {d.key} duplicates {o.key} ({s:.0%})" for d, o, s in plan.duplicates],
        "duplicates",
    )
    if dry and plan.promote:
        lines.append("Apply with dry_run=false (CLI: --apply).")
    return Rendered("\n".join(lines), report.to_dict())


def _apply_call(key: str, summary: str) -> str:
    return (f"memory_compress(key={json.dumps(key)}, summary={summary}) "
            f"(CLI: toon-memory compress {key} --summary TEXT)")  # fmt: skip


def compressed(result: CompressResult, call: Call) -> Rendered:
    entry, data = result.entry, result.to_dict()
    if result.applied:
        before = data["chars_before"]
        text = (f"🗜️ compressed {entry.key}: {before} → {len(entry.content)} chars; "
                f"the old version is kept as history ({data['history_id']}).")  # fmt: skip
        return Rendered(text, data)
    if result.summary:
        text = (f"🗜️ Summary of {entry.key} by {result.tool} (not applied yet; "
                f"{len(entry.content)} → {len(result.summary)} chars):\n\n{result.summary}\n\n"
                f"Apply: {_apply_call(entry.key, '<the summary above>')}")  # fmt: skip
        return Rendered(text, data)
    text = (f"🗜️ {entry.key}: {result.note}. Answer this prompt, then apply: "
            f"{_apply_call(entry.key, '<your answer>')}\n\n{result.prompt}")  # fmt: skip
    return Rendered(text, data)
