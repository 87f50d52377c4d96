"""Which process a session belongs to: the agent that started this one (hook or MCP server).

Invariant: never fails. An agent runs a hook command (or starts the server)
either directly or through a shell that stays as the parent; the agent's
process is the nearest ancestor that is not a shell, found through
``/proc/<pid>/stat``. Where ``/proc`` is missing (macOS, Windows) the answer
is the parent process.
"""

from __future__ import annotations

import os
from pathlib import Path

SHELLS = frozenset({"sh", "bash", "dash", "zsh", "fish", "ksh", "mksh", "ash", "busybox", "tcsh",
                    "csh", "cmd.exe", "powershell", "pwsh", "timeout", "env", "nice", "nohup"})  # fmt: skip
MAX_HOPS = 4


def process_info(pid: int, proc: Path = Path("/proc")) -> tuple[str, int] | None:
    """(command name, parent pid) of a process, None when unknown."""
    try:
        raw = (proc / str(pid) / "stat").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    start, end = raw.find("("), raw.rfind(")")
    fields = raw[end + 2 :].split()
    if start < 0 or end < start or len(fields) < 2 or not fields[1].isdigit():
        return None
    return raw[start + 1 : end], int(fields[1])


def agent_pid(parent: int | None = None, proc: Path = Path("/proc")) -> int:
    """The agent's process: the parent (default ``os.getppid()``), past any shells."""
    pid = os.getppid() if parent is None else parent
    for _ in range(MAX_HOPS):
        info = process_info(pid, proc)
        if info is None or info[0] not in SHELLS or info[1] <= 1:
            return pid
        pid = info[1]
    return pid
