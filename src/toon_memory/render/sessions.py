"""Text and data of the sessions tools, and the context a session-start hook injects.

Invariant: pure (no I/O); the MCP tools and the CLI commands render through
these functions. Text is compact: a session is one line plus its files (at
most ``FILES_SHOWN``), a merged observation or captured event one line; the
hook context never exceeds its token budget (counted with
``search.budget.estimate_tokens``), cutting from the end (the primer's
least useful lines first) and saying what it left out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from toon_memory.render.core import render_remember
from toon_memory.render.results import Rendered

if TYPE_CHECKING:
    from toon_memory.memory.hooks import HookStart
    from toon_memory.memory.sessions.reports import CapturedReport, MergeReport, SessionsReport
    from toon_memory.model.heartbeat import Session

Call = Mapping[str, Any]
FILES_SHOWN = 10
OTHERS_SHOWN = 10


def plural(count: int, noun: str) -> str:
    """``1 session``, ``2 sessions``."""
    return f"{count} {noun}" + ("" if count == 1 else "s")


def ago(last_seen: str, now: str) -> str:
    """``just now``, ``4 min ago``, ``2 h ago`` (``?`` when a stamp does not parse)."""
    from toon_memory.model.heartbeat import parse_stamp

    seen, at = parse_stamp(last_seen), parse_stamp(now)
    if seen is None or at is None:
        return "?"
    minutes = int((at - seen).total_seconds() // 60)
    if minutes < 1:
        return "just now"
    return f"{minutes} min ago" if minutes < 120 else f"{minutes // 60} h ago"


def who(session: Session | None, session_id: str = "") -> str:
    """``claude @ feature/db`` (the id when the session is unknown)."""
    if session is None:
        return session_id
    name = session.agent or "agent"
    return f"{name} @ {session.branch}" if session.branch else name


def _files(files: Sequence[str], limit: int = FILES_SHOWN) -> str:
    shown = ", ".join(files[-limit:][::-1])
    more = len(files) - limit
    return shown + (f" … +{more} more" if more > 0 else "")


def _conflict_lines(report: SessionsReport, indent: str = "  ") -> list[str]:
    lines = []
    for file, ids in report.conflicts.items():
        names = ", ".join(f"{who(report.session(i), i)} ({i})" for i in ids)
        lines.append(f"{indent}⚠️ {file}  ↔  {names}")
    return lines


def _session_lines(session: Session, report: SessionsReport) -> list[str]:
    mark = " (you)" if session.id == report.you else ""
    lines = [f"• {who(session)}{mark}", f"  id: {session.id}, {ago(session.last_seen, report.now)}"]
    if session.files:
        lines.append(f"  files: {_files(session.files)}")
    return lines


def sessions_listed(report: SessionsReport, call: Call) -> Rendered:
    """``memory_sessions``: the active sessions, then the soft conflicts."""
    window = f"window {report.window_minutes} min"
    conflicts = (
        [f"🔥 Soft conflicts ({len(report.conflicts)}):", *_conflict_lines(report)]
        if report.conflicts
        else ["No soft conflicts."]
    )
    if report.conflicts_only:
        return Rendered("\n".join(conflicts), report.to_dict())
    if not report.sessions:
        return Rendered(f"No active sessions ({window}).", report.to_dict())
    lines = [f"🧭 Active sessions ({len(report.sessions)}), {window}:"]
    for session in report.sessions:
        lines.extend(["", *_session_lines(session, report)])
    lines.extend(["", *conflicts])
    return Rendered("\n".join(lines), report.to_dict())


def sessions_merged(report: MergeReport, call: Call) -> Rendered:
    """``memory_merge_sessions``: one line per merged observation, then what was promoted."""
    if not report.merged:
        text = f"No observations about {report.file} from any session."
        return Rendered(text, report.to_dict())
    lines = [
        f"🔀 {report.file}: {plural(report.observations, 'observation')} from "
        f"{plural(len(report.sessions), 'session')} → {len(report.merged)} merged"
    ]
    for n, item in enumerate(report.merged, 1):
        seen = ", ".join(item.agents or item.sessions) or "?"
        times = f" ×{item.count}" if item.count > 1 else ""
        lines.append(f"{n}. {item.text}  [{seen}{times}]")
    if report.promoted:
        lines.extend(["", f"✅ Promoted {len(report.promoted)}:"])
        lines.extend(render_remember(result) for result in report.promoted)
    if report.known:
        lines.extend(["", f"Already in memory (not promoted again): {', '.join(report.known)}"])
    return Rendered("\n".join(lines), report.to_dict())


def _event_line(event: Mapping[str, Any]) -> str:
    parts = [str(event.get("ts", "")), str(event.get("agent", "") or event.get("session", ""))]
    text = str(event.get("summary", "") or event.get("tool", "") or "")
    file = str(event.get("file", "") or "")
    if file and file not in text:
        text = f"{text} {file}".strip()
    return "- " + " ".join(p for p in (*parts, text) if p)


def captured_shown(report: CapturedReport, call: Call) -> Rendered:
    """``memory_captured``: the events (oldest first), or how many were cleared."""
    if report.action == "clear":
        text = f"🧹 Cleared {plural(report.cleared, 'captured event')}."
        return Rendered(text, report.to_dict())
    state = "on" if report.enabled else 'off (set "capture": true in config.json)'
    if not report.events:
        return Rendered(f"No captured activity. Capture is {state}.", report.to_dict())
    head = f"📋 Captured activity, newest {len(report.events)} (limit {report.limit}), capture {state}:"
    lines = [head, *(_event_line(e) for e in report.events)]
    return Rendered("\n".join(lines), report.to_dict())


# -- the session-start hook ---------------------------------------------------------------------


def hook_lines(report: SessionsReport) -> list[str]:
    """This session, the other agents' active sessions and the soft conflicts."""
    me = report.session(report.you)
    lines = [f"toon-memory: this session {who(me, report.you)} ({report.you}), "
             f"window {report.window_minutes} min"]  # fmt: skip
    others = report.others()
    if others:
        lines.append(f"Other active sessions ({len(others)}):")
        for session in others[:OTHERS_SHOWN]:
            files = _files(session.files, 5) or "no files yet"
            lines.append(f"- {who(session)} ({session.id}), "
                         f"{ago(session.last_seen, report.now)}: {files}")  # fmt: skip
        if len(others) > OTHERS_SHOWN:
            lines.append(f"- … {len(others) - OTHERS_SHOWN} more (memory_sessions)")
    else:
        lines.append("No other active sessions.")
    if report.conflicts:
        lines.append(f"⚠️ Soft conflicts ({len(report.conflicts)}): coordinate before editing")
        lines.extend(_conflict_lines(report, "- ")[:OTHERS_SHOWN])
    return lines


HOOK_FOOTER = "Use memory_smart_recall before reading files; memory_sessions to coordinate."


def hook_started(started: HookStart, call: Call) -> Rendered:
    """session-start's context: sessions and conflicts, then the primer, within its budget."""
    from toon_memory.render.results import primed

    text = hook_context(started.sessions, primed(started.primer, {}).text, started.budget_tokens)
    return Rendered(text, {"context": text})


#: What ``memory_hook`` did when it has nothing to tell the agent, by action.
HOOK_DONE = {"session-start": "beaten", "post-tool": "recorded", "stop": "ended (if known)"}


def hook_done(started: HookStart | None, call: Call) -> Rendered:
    """``memory_hook``: session-start's context (``hook_started``); else one line saying what
    was done, and an empty ``context`` (nothing to tell the agent)."""
    if started is not None:
        return hook_started(started, call)
    action = str(call.get("action", ""))
    text = f"Session {call.get('session_id', '')}: {action} {HOOK_DONE.get(action, 'done')}."
    return Rendered(text, {"context": ""})


def hook_context(report: SessionsReport, primer_text: str, budget_tokens: int) -> str:
    """What session-start injects: sessions and conflicts first, then the primer, in budget.

    Lines are kept in order while the estimate stays within ``budget_tokens``
    (0: no limit); the cut is reported on a last line.
    """
    from toon_memory.search.budget import estimate_tokens

    lines = [*hook_lines(report), HOOK_FOOTER, "", *primer_text.splitlines()]
    whole = "\n".join(lines).rstrip()
    if budget_tokens <= 0 or estimate_tokens(whole) <= budget_tokens:
        return whole
    reserve = estimate_tokens(f"… {len(lines)} more lines left out (budget {budget_tokens})") + 1
    spent, keep = 0, 0
    for line in lines:
        cost = estimate_tokens(line) + 1
        if spent + cost > budget_tokens - reserve:
            break
        spent += cost
        keep += 1
    left = len([line for line in lines[keep:] if line.strip()])
    note = f"… {left} more lines left out (budget {budget_tokens})"
    return "\n".join([*lines[:keep], note]).strip()
