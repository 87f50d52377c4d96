"""Sessions of agents working on one memory: heartbeats, soft conflicts, observations, activity.

Invariant: the heartbeats are read and written only through the store's
``Heartbeats`` (``Store.sessions()``: the memory folder's files, or a team
database's table); each process writes only its own session's heartbeat;
reading the sessions never fails on a damaged record, and dead sessions are
pruned only lazily, by a reader; nothing here changes an entry except through
``Editor`` (promoting merged observations). Importing this package is cheap: the
records (``reports``), the rules (``rules``) and the store are imported when a
method runs.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from toon_memory.errors import quote
from toon_memory.model.entry import CAPTURED_ACTIONS

if TYPE_CHECKING:
    from toon_memory.memory.editor import Editor
    from toon_memory.memory.sessions.reports import CapturedReport, MergeReport, SessionsReport
    from toon_memory.model.heartbeat import Session
    from toon_memory.rules.remember import RememberResult
    from toon_memory.store.heartbeats import Heartbeats
    from toon_memory.store.store import Store


def check_captured(action: object, limit: object) -> tuple[str, int]:
    """(action, limit) of ``memory_captured``, or an ``InputError`` naming the bad one."""
    from toon_memory.model.checks import check_choice, check_whole

    name = check_choice("list" if action is None else action, "action", CAPTURED_ACTIONS)
    return name, check_whole(limit, "limit", 1)


class Sessions:
    """``Memory.sessions``: the coordination of parallel agent sessions."""

    def __init__(self, store: Store, root: Path, editor: Editor) -> None:
        self.store = store
        self.root = root
        self._editor = editor
        #: The session this process beats for (``you`` in reports); ``beat`` sets it.
        self.current = ""
        self._heartbeats: Heartbeats | None = None

    # -- where and how long ----------------------------------------------------------------
    @property
    def folder(self) -> Path:
        return self.store.paths.folder

    @property
    def heartbeats(self) -> Heartbeats:
        """Where the sessions live, as the store says (``Store.sessions()``)."""
        if self._heartbeats is None:
            self._heartbeats = self.store.sessions()
        return self._heartbeats

    def exists(self) -> bool:
        """Whether the memory folder exists (hooks and the server never create it)."""
        return self.folder.is_dir()

    def window(self) -> int:
        """Minutes within which a heartbeat counts as active (``sessionWindowMinutes``)."""
        from toon_memory.model.heartbeat import check_window
        from toon_memory.store.config import load_config

        minutes = load_config(self.store.paths.config).session_window_minutes
        return check_window(minutes, "sessionWindowMinutes")

    def capture_enabled(self) -> bool:
        from toon_memory.store.config import load_config

        return load_config(self.store.paths.config).capture

    # -- heartbeats ------------------------------------------------------------------------
    def get(self, session_id: str) -> Session | None:
        """The session's heartbeat as recorded (active or not), None when there is none."""
        return self.heartbeats.get(session_id)

    def beat(
        self, session_id: str, *, agent: str | None, files: Iterable[str] = (),
        notes: Iterable[tuple[str, str]] = (), pid: int | None = None,
    ) -> Session:  # fmt: skip
        """Create or refresh a session's heartbeat (branch from git); it becomes ``current``.

        ``agent=None`` keeps the recorded name; ``pid`` defaults to this process
        (a hook passes its agent's). Creates the memory folder when missing.
        """
        from toon_memory.model.heartbeat import check_session_id
        from toon_memory.project.git import current_branch
        from toon_memory.search.paths import normalise_path

        sid = check_session_id(session_id)
        if not self.exists():
            self.store.ensure_folder()
        session = self.heartbeats.beat(
            sid, agent=agent, branch=current_branch(self.root),
            files=[normalise_path(f) for f in files],
            notes=[(normalise_path(f), text) for f, text in notes], pid=pid, root=self.root,
        )  # fmt: skip
        self.current = sid
        return session

    def end(self, session_id: str) -> Session:
        """Mark a session ended (its files released, its notes kept for merging)."""
        from toon_memory.errors import InputError

        ended = self.heartbeats.end(session_id) if self.get(session_id) else None
        if ended is None:
            raise InputError("session_id", f"no session {quote(session_id)}")
        if ended.id == self.current:
            self.current = ""
        return ended

    def tool_used(
        self, session_id: str, *, agent: str | None, files: Sequence[str] = (), tool: str = "",
        summary: str = "", pid: int | None = None,
    ) -> Session:  # fmt: skip
        """A hook's post-tool: heartbeat with the files touched, and the activity log if on.

        Files a reading tool (``is_read_tool``) names are logged but not touched.
        """
        from toon_memory.rules.coordination import MAX_CAPTURED_FILES, is_read_tool

        touched = () if is_read_tool(tool) else files
        session = self.beat(session_id, agent=agent, files=touched, pid=pid)
        if self.capture_enabled():
            from toon_memory.store.captured import capture

            base = {"session": session.id, "agent": session.agent, "branch": session.branch,
                    "tool": tool, "summary": summary}  # fmt: skip
            for file in list(files)[:MAX_CAPTURED_FILES] or [""]:
                capture(self.folder, {**base, "file": file})
        return session

    # -- the tools -------------------------------------------------------------------------
    def list(self, conflicts_only: bool = False, session: str | None = None) -> SessionsReport:
        """Active sessions within the window and their soft conflicts; dead ones pruned.

        ``session`` names the caller's session (``you``; default: ``current``).
        """
        from toon_memory.memory.sessions.reports import SessionsReport
        from toon_memory.model.heartbeat import clock_now, format_stamp, is_active
        from toon_memory.rules.coordination import agent_conflicts, same_agent

        window, now = self.window(), clock_now()
        pruned = self.heartbeats.prune(window, now)
        active = tuple(s for s in self.heartbeats.read() if is_active(s, window, now))
        mine = self.current if session is None else session.strip()
        you = mine if any(s.id == mine for s in active) else ""
        return SessionsReport(
            sessions=active, conflicts=agent_conflicts(active), window_minutes=window,
            now=format_stamp(now), you=you, mine=same_agent(active, you),
            conflicts_only=bool(conflicts_only), pruned=tuple(pruned),
        )  # fmt: skip

    def merge(self, file: str, promote: bool = False) -> MergeReport:
        """Observations about ``file`` from every session, deduplicated (Jaccard > 0.5).

        With ``promote`` each merged observation becomes (or merges into) a
        knowledge entry about the file, through the usual remember rules.
        """
        from toon_memory.errors import InputError
        from toon_memory.memory.sessions.reports import MergeReport
        from toon_memory.model.heartbeat import normalize_path
        from toon_memory.rules.curation import known_entry, merge_observations, observation_draft
        from toon_memory.rules.remember import check_text, draft_entry
        from toon_memory.search.paths import normalise_path
        from toon_memory.store.config import load_config
        from toon_memory.store.observations import file_observations

        limits = load_config(self.store.paths.config).limits
        name = normalize_path(
            normalise_path(check_text(file, "file", limits, "file_chars")), self.root
        )
        if not name:
            raise InputError("file", "must not be empty")
        found = file_observations(self.folder, name, sessions=self.heartbeats.read())
        merged = tuple(merge_observations(found))
        promoted: list[RememberResult] = []
        known: list[str] = []
        for item in merged if promote else ():
            entry = known_entry(item, self.store.state().entries.values())
            if entry is not None:
                known.append(entry.key)
            else:
                promoted.append(self._editor.remember(draft_entry(**observation_draft(name, item))))
        return MergeReport(name, len(found), merged, tuple(promoted), tuple(dict.fromkeys(known)))

    def captured(self, action: str = "list", limit: int = 50) -> CapturedReport:
        """The activity log hooks write when ``capture`` is on: list (newest ``limit``) or clear."""
        from toon_memory.memory.sessions.reports import CapturedReport
        from toon_memory.store.captured import clear_captured, read_captured

        name, count = check_captured(action, limit)
        enabled = self.capture_enabled()
        if name == "clear":
            return CapturedReport(name, enabled, cleared=clear_captured(self.folder))
        return CapturedReport(name, enabled, tuple(read_captured(self.folder, count)), limit=count)
