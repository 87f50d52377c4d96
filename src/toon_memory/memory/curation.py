"""Curation of a memory over months: consolidate, reflect, promote, compress.

Invariant: plans come from the pure ``curation`` package; every removal is a
soft forget or a supersede (history kept, ``forget(action="restore")`` works)
applied through ``Editor`` as ONE locked write whose plan is made on the
locked state; a dry run, ``reflect`` and a compress without a summary change
nothing. Arguments are checked before any work, naming the bad one. The
only process run is a local ``claude``/``llm`` CLI, in bounded time.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toon_memory.errors import InputError, quote
from toon_memory.memory.editor import Editor, find_entry
from toon_memory.memory.recaller import Recaller
from toon_memory.model.checks import check_bool, check_choice, check_limit
from toon_memory.model.entry import CONSOLIDATE_MODES, Entry
from toon_memory.store.store import Store

if TYPE_CHECKING:
    from toon_memory.rules.curation import ConsolidationPlan, PromotePlan, Reflection

#: Most entries ``reflect`` ranks in one call.
MAX_REFLECT_LIMIT = 500
#: Seconds a local LLM CLI may take to summarise one entry before it is killed.
LLM_TIMEOUT = 60.0
#: Seconds a caller may give a local claude/llm CLI (``compress(timeout=...)``).
LLM_TIMEOUT_RANGE = (0.1, 3600.0)


def every_entry(store: Store) -> list[Entry]:
    """Every entry of the store's current state, read bare (no search engine built for a
    pass over them) and, when this process had no state loaded, let go afterwards: a
    long-lived server over the on-disk index stays small (~800 MB kept at 100,000
    entries otherwise); big blocks freed during the pass go back to the system at once
    (``heap``)."""
    from toon_memory.memory.heap import give_back_big_blocks

    give_back_big_blocks()
    loaded = store.loaded() is not None
    entries = list(store.bare_state().entries.values())
    if not loaded:
        store.release()
    return entries


@dataclass(frozen=True)
class ConsolidationReport:
    """What ``consolidate`` planned (dry run) or did: the plan and how it ran."""

    plan: ConsolidationPlan
    dry_run: bool
    min_quality: float | None = None

    @property
    def mode(self) -> str:
        return self.plan.mode

    def to_dict(self) -> dict[str, Any]:
        return {**self.plan.to_dict(), "dry_run": self.dry_run, "min_quality": self.min_quality,
                "applied": 0 if self.dry_run else len(self.plan.removals)}  # fmt: skip


@dataclass(frozen=True)
class PromoteReport:
    """Drafts promoted (or, in a dry run, that would be) and drafts held back as duplicates."""

    plan: PromotePlan
    dry_run: bool

    def to_dict(self) -> dict[str, Any]:
        applied = 0 if self.dry_run else len(self.plan.promote)
        return {**self.plan.to_dict(), "dry_run": self.dry_run, "applied": applied}


#: How a ``CompressResult`` came about.
APPLIED, SUGGESTED, PROMPT = "applied", "suggested", "prompt"


@dataclass(frozen=True)
class CompressResult:
    """One step of ``compress``.

    ``status`` is ``applied`` (the summary replaced the content; ``history``
    is the old version), ``suggested`` (a local CLI, ``tool``, wrote
    ``summary``; not applied yet) or ``prompt`` (no CLI answered: run
    ``prompt`` and call again with its answer as the summary).
    """

    entry: Entry
    status: str
    summary: str = ""
    prompt: str = ""
    tool: str = ""
    note: str = ""
    history: Entry | None = None

    @property
    def applied(self) -> bool:
        return self.status == APPLIED

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "status": self.status, "key": self.entry.key, "id": self.entry.id,
            "chars_before": len(self.history.content if self.history else self.entry.content),
            "summary": self.summary, "tool": self.tool, "note": self.note,
            "history_id": self.history.id if self.history else "",
        }  # fmt: skip
        if self.prompt:
            out["prompt"] = self.prompt
        if self.status != APPLIED and (self.summary or self.prompt):
            out["apply"] = {"key": self.entry.key, "summary": self.summary or "<your summary>"}
        return out


def check_mode(mode: object) -> str:
    """A consolidation mode (case and spaces forgiven), or InputError naming ``mode``."""
    return check_choice("identical" if mode is None else mode, "mode", CONSOLIDATE_MODES)


class Curation:
    """``Memory.curation``: keeping a memory clean."""

    def __init__(self, store: Store, root: Path, editor: Editor, recaller: Recaller) -> None:
        self.store = store
        self.root = root
        self._editor = editor
        self._recaller = recaller
        #: Seconds ``compress`` waits for a local LLM CLI unless a call gives ``timeout``.
        self.llm_timeout = LLM_TIMEOUT

    def _entries(self) -> list[Entry]:
        return every_entry(self.store)

    # -- consolidate -------------------------------------------------------
    def consolidate(
        self, mode: str = "identical", dry_run: bool = True, min_quality: float | None = None
    ) -> ConsolidationReport:
        """Deduplicate (identical, similar), clean up (low-quality) or retire old versions.

        A dry run (the default) lists what would go, with the entry kept in
        its place and the similarity; otherwise every removal is applied as
        a soft forget or supersede in one write (``forget(action="restore")``
        brings any back).
        """
        from toon_memory.rules.curation import check_min_quality, plan_consolidation
        from toon_memory.rules.curation.consolidate import DEFAULT_MIN_QUALITY

        chosen, dry = check_mode(mode), check_bool(dry_run, "dry_run")
        floor = None if min_quality is None else check_min_quality(min_quality)
        if floor is None and chosen == "low-quality":
            floor = DEFAULT_MIN_QUALITY

        def plan(entries: list[Entry]) -> ConsolidationPlan:
            return plan_consolidation(entries, chosen, floor)

        if dry:
            return ConsolidationReport(plan(self._entries()), True, floor)
        return ConsolidationReport(self._editor.consolidate(plan), False, floor)

    # -- reflect -----------------------------------------------------------
    def reflect(self, limit: int = 20) -> Reflection:
        """Entries needing attention (stale, low quality, hubs), tag pairs, contradictions."""
        from toon_memory.model.clock import today
        from toon_memory.rules.curation import reflect

        top = check_limit(limit, MAX_REFLECT_LIMIT)
        return reflect(self._entries(), today(), top)

    # -- promote -----------------------------------------------------------
    def promote(self, dry_run: bool = True) -> PromoteReport:
        """Drafts (confidence <= 0.65) become full entries unless they duplicate one."""
        from toon_memory.rules.curation import plan_promotion

        if check_bool(dry_run, "dry_run"):
            return PromoteReport(plan_promotion(self._entries()), True)
        return PromoteReport(self._editor.promote(plan_promotion), False)

    # -- compress ----------------------------------------------------------
    def compress(
        self, key: str, summary: str | None = None, allow_secrets: bool = False,
        timeout: float | None = None,
    ) -> CompressResult:  # fmt: skip
        """Step 1 (no summary): a summary from a local CLI, else the prompt to run.

        Step 2 (summary): it replaces the content; the old version is kept
        as superseded history (``Memory.history(key)`` shows both). A
        credential in the summary refuses it unless ``allow_secrets``.
        ``timeout``: seconds the local CLI may take (default ``llm_timeout``).
        """
        from toon_memory.model.checks import check_number
        from toon_memory.rules.secrets import check_fields

        wait = self.llm_timeout
        if timeout is not None:
            wait = check_number(timeout, "timeout", *LLM_TIMEOUT_RANGE)

        if summary is not None:
            check_fields({"summary": summary}, allow_secrets)
            return self._apply_summary(key, summary)
        entry = find_entry(self.store.state(), key, "key")
        if not entry.active:
            raise InputError("key", f"{quote(entry.key)} is {entry.status}; restore it first")
        return self._suggest(entry.copy(), wait)

    def _apply_summary(self, key: str, summary: str) -> CompressResult:
        from toon_memory.rules.curation import check_summary

        text = check_summary(summary)
        entry, history = self._editor.replace_content(key, text)
        if history is None:
            raise InputError("summary", "is already the entry's content; nothing to replace")
        return CompressResult(entry, APPLIED, summary=text, history=history)

    def _suggest(self, entry: Entry, timeout: float) -> CompressResult:
        from toon_memory.project.llm_cli import find_llm_cli, run_llm_cli
        from toon_memory.rules.curation import compress_prompt

        prompt = compress_prompt(entry)
        command = find_llm_cli()
        if command is None:
            return CompressResult(entry, PROMPT, prompt=prompt, note="no claude or llm CLI on PATH")
        tool = Path(command[0]).name
        answer = run_llm_cli(prompt, command=command, timeout=timeout)
        if answer is None:
            note = f"{tool} gave no answer (failed, silent or past {timeout:g}s)"
            return CompressResult(entry, PROMPT, prompt=prompt, tool=tool, note=note)
        return CompressResult(entry, SUGGESTED, summary=answer, tool=tool)
