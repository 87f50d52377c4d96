"""The sessions as the briefs show them: the active ones, their conflicts, the last one.

Invariant: reads the heartbeats through the store's ``Heartbeats`` (a damaged
record is skipped, never fatal). ``session_view`` removes dead sessions on the
way, as every reader of sessions does; ``last_session`` and ``stale_count``
only read, so callers run them first, on what was there before pruning.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from toon_memory.memory.briefs.results import SessionView
from toon_memory.model.heartbeat import Session, is_active, soft_conflicts, stale_sessions

if TYPE_CHECKING:
    from toon_memory.store.heartbeats import Heartbeats


def session_view(
    heartbeats: Heartbeats, root: Path, window_minutes: int, now: datetime
) -> SessionView:
    """Active sessions within the window (dead ones pruned first) and their soft conflicts."""
    from toon_memory.project.git import current_branch

    active = heartbeats.active(window_minutes, now)
    return SessionView(
        tuple(active), soft_conflicts(active), current_branch(root), now, window_minutes
    )


def stale_count(sessions: Iterable[Session], window_minutes: int, now: datetime) -> int:
    """Sessions past the window that never ended (crashed or abandoned)."""
    return len(stale_sessions(sessions, window_minutes, now))


def last_session(
    sessions: Iterable[Session], window_minutes: int, now: datetime, own: str = ""
) -> Session | None:
    """The session that was seen last among those no longer active, other than this one.

    This one is the session ``own`` names, or a session of this process.
    A parallel session that is still active is not "the last session": it
    has not finished.
    """
    pid = os.getpid()
    done = [
        s
        for s in sessions
        if s.id != own and s.pid != pid and not is_active(s, window_minutes, now) and s.seen_at()
    ]
    return max(done, key=lambda s: (s.seen_at(), s.id), default=None)
