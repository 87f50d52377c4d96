"""A real team server for the ``--server`` tests: ``toon-memory mcp --http`` on 127.0.0.1.

``team_server`` starts the real program with ``TOON_MEMORY_TOKEN`` set over its own
project (a fresh memory), waits until it listens, and always stops it (SIGTERM, then
SIGKILL): no orphan process. ``dead_url`` is a loopback URL nothing listens on.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from tests.adapters.server.helpers import (
    SERVER_CMD,
    free_port,
    make_project,
    server_env,
    wait_listening,
)

from toon_memory import Memory

#: The token the test servers are given (long enough to be found if it ever leaked).
TOKEN = "team-token-5f0c1e9a7b3d4c2e8f6a"


@dataclass(frozen=True)
class TeamServer:
    url: str
    project: Path
    proc: subprocess.Popen[str]

    @property
    def data(self) -> str:
        """The server's data.toon (journal folded in by the server's own writes)."""
        folder = self.project / ".toon-memory" / "memory"
        return "".join(
            p.read_text(encoding="utf-8")
            for p in (folder / "data.toon", folder / "journal.jsonl")
            if p.exists()
        )


def dead_url() -> str:
    return f"http://127.0.0.1:{free_port()}/mcp"


@contextlib.contextmanager
def team_server(base: Path, token: str = TOKEN) -> Iterator[TeamServer]:
    """The real HTTP server over a fresh memory under ``base``, stopped on exit."""
    project, home = make_project(base / "team")
    env = {**os.environ, **server_env(project, home), "TOON_MEMORY_TOKEN": token}
    env.pop("TOON_MEMORY_SERVER", None)
    Memory(project).init()
    port = free_port()
    cmd = [*SERVER_CMD, "--http", "--host", "127.0.0.1", "--port", str(port)]
    proc = subprocess.Popen(cmd, env=env, text=True, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, start_new_session=True)  # fmt: skip
    try:
        wait_listening(port, proc)
        yield TeamServer(f"http://127.0.0.1:{port}/mcp", project, proc)
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
        try:
            proc.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate(timeout=20)
