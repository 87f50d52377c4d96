"""What parallel sessions observed about one file, gathered from where sessions leave it.

Invariant: two sources, read only: the notes in the session heartbeats
(written by ``sessions.beat(notes=...)``, e.g. by the MCP server on each
write tool call; the caller passes its store's, ``Store.sessions()``, else
the folder's heartbeat files are read) and the captured activity log
(written by hooks when ``capture`` is on). Nothing here writes or deletes; bad files and lines are
skipped. The result is in time order, oldest first.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toon_memory.model.heartbeat import Session
from toon_memory.store.captured import read_captured, same_file
from toon_memory.store.heartbeats import read_sessions

#: Event fields that may carry the observation's text, in order of preference.
TEXT_FIELDS: tuple[str, ...] = ("summary", "text", "note", "content")


@dataclass(frozen=True)
class Observation:
    """One thing a session noted about a file."""

    session: str
    file: str
    text: str
    at: str
    agent: str = ""
    branch: str = ""
    source: str = "session"  # "session" (a heartbeat note) or "captured" (the activity log)

    def to_dict(self) -> dict[str, str]:
        return {
            "session": self.session, "file": self.file, "text": self.text, "at": self.at,
            "agent": self.agent, "branch": self.branch, "source": self.source,
        }  # fmt: skip


def _from_event(event: dict[str, Any]) -> Observation | None:
    text = next((str(event[f]) for f in TEXT_FIELDS if str(event.get(f) or "").strip()), "")
    if not text.strip():
        return None
    return Observation(
        session=str(event.get("session", "") or ""), file=str(event.get("file", "") or ""),
        text=" ".join(text.split()), at=str(event.get("ts", "") or ""),
        agent=str(event.get("agent", "") or ""), branch=str(event.get("branch", "") or ""),
        source="captured",
    )  # fmt: skip


def _from_session(session: Session, file: str) -> list[Observation]:
    notes = [note for note in session.notes if same_file(note.file, file)]
    return [
        Observation(session.id, note.file, note.text, note.at, session.agent, session.branch)
        for note in notes
    ]


def file_observations(
    folder: Path, file: str, *, sessions: list[Session] | None = None
) -> list[Observation]:
    """Every observation about ``file`` from the session notes and the captured log.

    ``sessions`` defaults to every readable heartbeat file (active or not:
    a session that ended still contributes what it noted).
    """
    found: list[Observation] = []
    for session in read_sessions(folder) if sessions is None else sessions:
        found.extend(_from_session(session, file))
    for event in read_captured(folder, None, file=file):
        observation = _from_event(event)
        if observation is not None:
            found.append(observation)
    return sorted(found, key=lambda o: (o.at, o.session, o.text))
