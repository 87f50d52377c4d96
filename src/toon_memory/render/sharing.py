"""Renderers of the sharing results: global store, Gist, git set-up, merge driver, watch.

Invariant: the CLI and the MCP server show these results only through the
functions here, each ``(result, call) -> Rendered``; text lists at most
``MAX_NOTES`` messages and says how many it left out, the data holds them
all. No result carries a token, so none can be shown. Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from toon_memory.render.results import Rendered

if TYPE_CHECKING:
    from toon_memory.memory.sharing import FileMerge, GistReport, SyncReport
    from toon_memory.memory.watcher import WatchSummary
    from toon_memory.project.teamgit import GitSetup

Call = Mapping[str, Any]
MAX_NOTES = 20


def _plural(n: int, noun: str) -> str:
    plural = noun[:-1] + "ies" if noun.endswith("y") else noun + "s"
    return f"{n} {noun if n == 1 else plural}"


def _notes(messages: list[str]) -> list[str]:
    lines = [f"  - {m}" for m in messages[:MAX_NOTES]]
    if len(messages) > MAX_NOTES:
        lines.append(f"  … {len(messages) - MAX_NOTES} more notes (see --json)")
    return lines


def _counts(report: SyncReport) -> str:
    parts = [f"{_plural(report.added, 'entry')} added", f"{report.updated} updated"]
    if report.history:
        parts.append(f"{_plural(report.history, 'older version')} kept as history")
    if report.removed:
        parts.append(f"{report.removed} removed")
    if report.summaries:
        parts.append(_plural(report.summaries, "summary"))
    parts.append(f"{report.unchanged} unchanged")
    return ", ".join(parts)


def _synced(head: str, report: SyncReport) -> Rendered:
    lines = [f"{head}: {_counts(report)}."]
    if report.backup is not None:
        lines.append(f"The replaced memory is kept in {report.backup} "
                     f"(toon-memory restore --from {report.backup}).")  # fmt: skip
    lines.extend(_notes(report.messages))
    return Rendered("\n".join(lines), report.to_dict())


def global_exported(report: SyncReport, call: Call) -> Rendered:
    return _synced(f"🌐 exported to the global memory ({report.target})", report)


def global_imported(report: SyncReport, call: Call) -> Rendered:
    verb = "replaced this project's entries with" if report.mode == "replace" else "merged in"
    return _synced(f"🌐 {verb} the global memory ({report.source})", report)


def team_pushed(report: SyncReport, call: Call) -> Rendered:
    return _synced(f"👥 pushed to {report.target}", report)


def team_pulled(report: SyncReport, call: Call) -> Rendered:
    return _synced(f"👥 pulled from {report.source} into {report.target}", report)


def gist_exported(report: GistReport, call: Call) -> Rendered:
    verb = "created" if report.created else "updated"
    seen = ("public" if report.public else "secret") if report.created else ""
    head = f"☁️ {verb} {seen + ' ' if seen else ''}gist {report.id}"
    lines = [f"{head}: {_plural(report.entries, 'entry')}, {_plural(report.summaries, 'summary')}."]
    if report.url:
        lines.append(report.url)
    if report.created:
        lines.append("Its id is remembered in config.json: the next export updates this gist. "
                     f"Import elsewhere with: toon-memory gist import {report.id}")  # fmt: skip
    lines.extend(_notes(list(report.messages)))
    return Rendered("\n".join(lines), report.to_dict())


def gist_imported(report: SyncReport, call: Call) -> Rendered:
    return _synced(f"☁️ merged in {report.source}", report)


def git_set_up(setup: GitSetup, call: Call) -> Rendered:
    lines = [
        f"🔀 team sync set up in {setup.top}",
        f"  merge driver: {setup.pattern} merge=toon-memory "
        f"({'added to' if setup.attributes_added else 'already in'} {setup.attributes.name})",
        f"  git config merge.toon-memory.driver = {setup.driver}",
        f"  pre-commit hook: {setup.hook} ({'written' if setup.hook_written else 'unchanged'})",
    ]
    if setup.chained is not None:
        lines.append(f"  the earlier hook runs first: {setup.chained}")
    if setup.ignores_added:
        lines.append(f"  ignored in the memory folder: {', '.join(setup.ignores_added)}")
    lines.append(f"Commit {setup.attributes.name} and the memory folder; each clone runs "
                 "`toon-memory git-setup` once (git config and hooks are not committed).")  # fmt: skip
    data = {"top": str(setup.top), "attributes": str(setup.attributes), "pattern": setup.pattern,
            "attributes_added": setup.attributes_added, "driver": setup.driver,
            "hook": str(setup.hook), "hook_written": setup.hook_written,
            "chained": str(setup.chained) if setup.chained else None,
            "ignores_added": list(setup.ignores_added)}  # fmt: skip
    return Rendered("\n".join(lines), data)


def files_merged(result: FileMerge, call: Call) -> Rendered:
    head = (f"toon-memory merge: {_plural(result.entries, 'entry')} "
            f"({result.active} active, {result.history} new history) -> {result.path}")  # fmt: skip
    return Rendered("\n".join([head, *_notes(list(result.notes))]), result.to_dict())


def watched(summary: WatchSummary, call: Call) -> Rendered:
    s = summary
    head = (f"⏱️ watch stopped ({s.reason or 'done'}): {_plural(s.checks, 'check')}, "
            f"{_plural(len(s.written), 'backup')} written, {len(s.pruned)} pruned")  # fmt: skip
    lines = [head + (f", {_plural(len(s.errors), 'error')}" if s.errors else "") + "."]
    if s.written:
        lines.append(f"Newest: {s.written[-1]}")
    if s.log is not None:
        lines.append(f"Log: {s.log}")
    lines.extend(_notes(s.errors))
    return Rendered("\n".join(lines), s.to_dict())
