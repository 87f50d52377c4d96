"""Markdown of the context briefs (and the primer), fitted to their token budgets.

Invariant: each renderer is a pure function of a ``context.results`` value
(same result, same text): it lays the result out as sections of valued lines
and lets ``render.document.fit`` cut the lowest-value lines first, so the
text never exceeds the result's ``budget_tokens`` and says what it left out.
Values: facts a reader cannot do without (project name, branch, score,
counts) ~100; the best memories 70-90; sessions and conflicts ~60; lists
(commits, files, callers, findings) lower, decreasing down each list. The
data is the kept sections, the left-out counts, and a few structured facts.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

from toon_memory.render import lines as item
from toon_memory.render.brief_sections import (
    BRIEF_SECTION,
    SECTION_TITLES,
    memory_sections,
    ranked,
    session_section,
)
from toon_memory.render.core import authored
from toon_memory.render.document import Fitted, Line, Section, fit
from toon_memory.render.results import Call, Rendered

if TYPE_CHECKING:
    from toon_memory.memory.briefs.results import (
        Brief,
        Briefing,
        Changes,
        Focus,
        HealthReport,
        MemoryExport,
    )
    from toon_memory.project.languages import ProjectFacts
    from toon_memory.project.repository import GitFacts

TITLE_CHARS = 80


def _rendered(kind: str, fitted: Fitted, facts: dict[str, Any]) -> Rendered:
    return Rendered(fitted.text, {"kind": kind, **facts, **fitted.to_dict()})


# -- context_brief, context_generate ---------------------------------------------------------
def briefed(brief: Brief, call: Call) -> Rendered:
    """Memory, sessions and a health summary in one compact markdown answer."""
    health = brief.health
    sections = [
        *memory_sections(brief.primer, per_section=BRIEF_SECTION),
        session_section(brief.sessions),
    ]
    sections.append(_health_summary(health, "## Health"))
    fitted = fit("# Context brief", sections, brief.budget_tokens)
    facts = {"score": health.score, "counts": brief.primer.counts,
             "sessions": len(brief.sessions.sessions)}  # fmt: skip
    return _rendered("brief", fitted, facts)


def _project_section(project: ProjectFacts) -> Section:
    section = Section("## Project", noun="line")
    section.add(f"- Name: {project.name}", 100).add(f"- Root: {project.root}", 99)
    managers = project.package_managers
    if managers:
        extra = f" (also {', '.join(managers[1:])})" if len(managers) > 1 else ""
        section.add(f"- Package manager: {managers[0]}{extra}", 92)
    for i, language in enumerate(project.languages):
        section.add(item.language_item(language), 90 - i)
    if project.dependencies:
        deps = ", ".join(d.name for d in project.dependencies)
        section.add(f"- Dependencies: {item.cut(deps, 200)}", 35)
    return section


def _git_section(git: GitFacts) -> Section:
    section = Section("## Git", noun="line")
    if not git.is_repo:
        return section.add("- Not a git repository", 100)
    section.add(f"- Branch: {git.branch}" + (" (detached)" if git.detached else ""), 100)
    section.add(f"- {git.uncommitted} uncommitted, {git.untracked} untracked", 96)
    if git.last_commit is not None:
        section.add("- Last commit: " + item.commit_item(git.last_commit)[2:], 94)
    return section


def generated(briefing: Briefing, call: Call) -> Rendered:
    """Project, git, memory and sessions: the full briefing."""
    sections = [_project_section(briefing.project), _git_section(briefing.git),
                *memory_sections(briefing.primer, per_section=BRIEF_SECTION), session_section(briefing.sessions)]  # fmt: skip
    fitted = fit("# Project briefing", sections, briefing.budget_tokens)
    git = briefing.git
    facts = {"project": briefing.project.name, "root": briefing.project.root,
             "branch": git.branch, "uncommitted": git.uncommitted, "untracked": git.untracked,
             "counts": briefing.primer.counts}  # fmt: skip
    return _rendered("generate", fitted, facts)


# -- context_diff ------------------------------------------------------------------------------
def _memory_change_lines(changes: Changes) -> list[tuple[str, float]]:
    found: list[tuple[str, float]] = []
    for label, entries, first in (("new", changes.created, 72.0),
                                  ("updated", changes.updated, 68.0)):  # fmt: skip
        found += [(f"- {label} " + item.entry_item(e)[2:] + authored(e), first - 0.5 * i)
                  for i, e in enumerate(entries)]  # fmt: skip
    found += [(f"- forgotten [{e.category}] {e.key} ({e.status})", 58 - 0.5 * i)
              for i, e in enumerate(changes.forgotten)]  # fmt: skip
    return found


def diffed(changes: Changes, call: Call) -> Rendered:
    """Commits, changed files, memory changes and sessions since a moment."""
    counts = (len(changes.created), len(changes.updated), len(changes.forgotten))
    memory = Section(f"## Memory ({counts[0]} new, {counts[1]} updated, {counts[2]} forgotten)",
                     noun="memory", empty="- no changes")  # fmt: skip
    for text, value in _memory_change_lines(changes):
        memory.add(text, value)
    commits = [item.commit_item(c) for c in changes.commits]
    files = [f"- {name}" for name in changes.files]
    sections = [
        Section("", noun="line").add(f"Since {changes.basis}", 100),
        memory,
        ranked(f"## Commits ({len(commits)})", commits, 56, 0.3, "commit", "- none"),
        ranked(f"## Changed files ({len(files)})", files, 50, 0.2, "file", "- none"),
        session_section(changes.sessions),
    ]
    fitted = fit(f"# Changes since {changes.since}", sections, changes.budget_tokens)
    facts = {"since": changes.since, "basis": changes.basis, "commits": len(commits),
             "files": len(files), "memories": dict(zip(("new", "updated", "forgotten"), counts, strict=True))}  # fmt: skip
    return _rendered("diff", fitted, facts)


# -- context_focus -----------------------------------------------------------------------------
def focused(focus: Focus, call: Call) -> Rendered:
    """Matching memories, the files around them, their tests and the callers of named symbols."""
    entries = [item.entry_item(e) + (f" ({e.file})" if e.file else "") for e in focus.entries]
    tests = [f"- {test} (tests {source})" for source, found in focus.tests.items()
             for test in found]  # fmt: skip
    named = f" of {', '.join(focus.symbols[:6])}" if focus.symbols else ""
    sections = [
        ranked(f"## Memories ({len(entries)})", entries, 90, 2, "entry", "- none match"),
        ranked("## Files", [f"- {name}" for name in focus.files], 70, 2, "file", "- none named"),
        ranked("## Tests", list(dict.fromkeys(tests)), 60, 2, "test file"),
        ranked(f"## Callers{named}", [item.caller_item(h) for h in focus.callers], 40, 0.5,
                "caller"),
    ]  # fmt: skip
    fitted = fit(f"# Focus: {item.cut(focus.query, TITLE_CHARS)}", sections, focus.budget_tokens)
    facts = {"query": focus.query, "files": list(focus.files), "symbols": list(focus.symbols)}
    return _rendered("focus", fitted, facts)


# -- context_health ----------------------------------------------------------------------------
def _health_summary(health: HealthReport, title: str) -> Section:
    kinds = ", ".join(f"{item.FINDING_LABELS.get(k, k).lower()} {n}"
                      for k, n in health.kinds().items())  # fmt: skip
    section = Section(title, noun="finding").add(
        f"- Score {health.score}/100; " + (f"findings: {kinds}" if kinds else "no findings"), 90
    )
    return _findings_into(section, health, 45)


def _findings_into(section: Section, health: HealthReport, top: float) -> Section:
    """Each kind's findings interleaved: the n-th of a kind is worth weight / n."""
    from toon_memory.rules.curation.health import WEIGHTS

    seen: dict[str, int] = {}
    for finding in health.findings:
        seen[finding.kind] = seen.get(finding.kind, 0) + 1
        weight = WEIGHTS.get(finding.kind, 1) / max(WEIGHTS.values())
        section.add(item.finding_item(finding), top * weight / seen[finding.kind])
    return section


def audited(health: HealthReport, call: Call) -> Rendered:
    """The score, a summary of the memory and the findings behind the score."""
    summary = Section("## Summary", noun="line")
    summary.add(f"- {health.entries:,} entries ({item.counts_text(health.counts)})", 95)
    summary.add(f"- {health.average_quality:.0%} average quality", 90)
    kinds = health.kinds()
    if kinds:
        text = ", ".join(f"{item.FINDING_LABELS.get(k, k).lower()} {n}" for k, n in kinds.items())
        summary.add(f"- Findings: {text}", 92)
    issues = _findings_into(Section(f"## Issues ({len(health.findings):,})", noun="finding",
                                    empty="- none"), health, 60)  # fmt: skip
    refs: dict[str, int] = {}
    for finding in health.findings:
        if finding.kind == "broken_file":
            refs[finding.related] = refs.get(finding.related, 0) + 1
    stale = [f"- {path} (missing, {n} ref{'s' if n != 1 else ''})" for path, n in refs.items()]
    sections = [
        summary,
        issues,
        ranked(f"## Missing files ({len(stale):,})", stale, 50, 2, "file"),
    ]
    fitted = fit(f"# Memory health (score: {health.score}/100)", sections, health.budget_tokens)
    facts = {"score": health.score, "kinds": kinds, "stale_sessions": health.stale_sessions}
    return _rendered("health", fitted, facts)


# -- context_export ----------------------------------------------------------------------------
def exported(export: MemoryExport, call: Call) -> Rendered:
    """Every active entry by category, best first: markdown for a system prompt.

    A line is worth its rank; past the first ``budget_tokens`` ranks no line
    can fit (each costs a token or more), so those are only counted.
    """
    from toon_memory.model.entry import CATEGORIES

    line = item.entry_short if export.compact else item.entry_full
    budget, total = export.budget_tokens, len(export.entries)
    listed = total if budget <= 0 else min(total, budget)
    by_category: dict[str, Section] = {}
    for rank, entry in enumerate(export.entries):
        section = by_category.get(entry.category)
        if section is None:
            name = SECTION_TITLES.get(entry.category, entry.category.capitalize())
            count = export.counts.get(entry.category, 0)
            section = by_category[entry.category] = Section(f"## {name} ({count:,})", noun="entry")
        if rank < listed:
            section.lines.append(Line(partial(line, entry), -float(rank)))
        else:
            section.more += 1
    order = [c for c in CATEGORIES if c in by_category] + sorted(set(by_category) - set(CATEGORIES))
    sections = [by_category[c] for c in order] or [Section("", empty="No entries yet.")]
    title = f"# Project memory: {item.cut(export.project, TITLE_CHARS)} ({total:,} entries)"
    fitted = fit(title, sections, budget)
    return _rendered("export", fitted, {"project": export.project, "entries": total,
                                        "compact": export.compact})  # fmt: skip
