"""What the sessions tools answer: active sessions and conflicts, merged observations, activity.

Invariant: plain frozen records built by ``Sessions``; ``to_dict`` is the
JSON the CLI prints with ``--json`` (a session's notes are left out of the
sessions list: ``memory_merge_sessions`` is where they are read).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from toon_memory.model.heartbeat import Session
    from toon_memory.rules.curation import MergedObservation
    from toon_memory.rules.remember import RememberResult


@dataclass(frozen=True)
class SessionsReport:
    """``memory_sessions``: the active sessions (newest first) and their soft conflicts."""

    sessions: tuple[Session, ...]
    conflicts: dict[str, tuple[str, ...]]
    window_minutes: int
    now: str
    you: str = ""
    mine: tuple[str, ...] = ()
    conflicts_only: bool = False
    pruned: tuple[str, ...] = ()

    def session(self, session_id: str) -> Session | None:
        return next((s for s in self.sessions if s.id == session_id), None)

    def others(self) -> tuple[Session, ...]:
        """Sessions of other agent processes than yours."""
        return tuple(s for s in self.sessions if s.id not in self.mine)

    def to_dict(self) -> dict[str, Any]:
        sessions = [{**s.to_dict(), "you": s.id == self.you} for s in self.sessions]
        for item in sessions:
            item.pop("notes", None)
        data: dict[str, Any] = {
            "window_minutes": self.window_minutes, "you": self.you or None,
            "conflicts": [{"file": f, "sessions": list(ids)} for f, ids in self.conflicts.items()],
        }  # fmt: skip
        if not self.conflicts_only:
            data["sessions"] = sessions
        return data


@dataclass(frozen=True)
class MergeReport:
    """``memory_merge_sessions``: what parallel sessions observed about one file, merged."""

    file: str
    observations: int
    merged: tuple[MergedObservation, ...]
    promoted: tuple[RememberResult, ...] = ()
    #: Keys of the entries that already held a merged observation (not promoted again).
    known: tuple[str, ...] = ()

    @property
    def sessions(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(s for m in self.merged for s in m.sessions))

    def to_dict(self) -> dict[str, Any]:
        return {
            "file": self.file, "observations": self.observations,
            "sessions": list(self.sessions), "merged": [m.to_dict() for m in self.merged],
            "promoted": [
                {"key": r.entry.key, "id": r.entry.id, "created": r.created} for r in self.promoted
            ],
            "known": list(self.known),
        }  # fmt: skip


@dataclass(frozen=True)
class CapturedReport:
    """``memory_captured``: the newest events of the activity log, or how many were cleared."""

    action: str
    enabled: bool
    events: tuple[dict[str, Any], ...] = ()
    cleared: int = 0
    limit: int = 0

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"action": self.action, "capture": self.enabled}
        if self.action == "clear":
            data["cleared"] = self.cleared
        else:
            data["events"] = list(self.events)
        return data
