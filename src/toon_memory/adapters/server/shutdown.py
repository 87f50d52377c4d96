"""A forced stop leaves nothing behind: the processes a running call started go too.

Invariant: never raises. Used only when the server exits while a call still
runs (past its grace period), so the children found are that call's: an LLM
CLI (which leads its own process group, ``project.llm_cli``, and is stopped
with its whole group), git, ripgrep. Children are found through ``/proc``
(``store.processes``); where there is none, nothing is found. No ``mcp``.
"""

from __future__ import annotations

import os
import signal
from pathlib import Path

from toon_memory.system.processes import process_info


def children(parent: int | None = None, proc: Path = Path("/proc")) -> list[int]:
    """Pids whose parent is ``parent`` (default: this process)."""
    parent = os.getpid() if parent is None else parent
    try:
        pids = [int(entry.name) for entry in proc.iterdir() if entry.name.isdigit()]
    except OSError:
        return []
    found = []
    for pid in pids:
        info = process_info(pid, proc)
        if info is not None and info[1] == parent:
            found.append(pid)
    return found


def stop_children(parent: int | None = None, proc: Path = Path("/proc")) -> list[int]:
    """SIGTERM each child (its whole group when it leads one); the pids signalled."""
    stopped = []
    for pid in children(parent, proc):
        try:
            if hasattr(os, "getpgid") and os.getpgid(pid) == pid:
                os.killpg(pid, signal.SIGTERM)
            else:
                os.kill(pid, signal.SIGTERM)
            stopped.append(pid)
        except OSError:
            continue
    return stopped
