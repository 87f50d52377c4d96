"""A long call does not hold the server: ping answers, SIGTERM and end of stdin stop it.

The long call is ``memory_compress`` without a summary, which runs a fake
``claude`` first on PATH that sleeps far past the call's 60 s LLM timeout
(never a real one). The stop must neither wait for that call nor leave the
fake behind, and every write acknowledged before it must be readable after.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.adapters.server.helpers import make_project
from tests.adapters.server.rawhttp import HttpServer
from tests.adapters.server.rawstdio import RawServer
from tests.memory.curation.curating_helpers import fake_llm, path_without_llms, sleeper

from toon_memory import Memory

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals and processes")
PROC = Path("/proc/self/stat").exists()
#: Longer than any stop may take, far shorter than the call it interrupts (60 s or more).
EXIT_WAIT = 15.0


def _gone(pid: int) -> bool:
    """Exited (a zombie nobody reaps counts: it runs nothing)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        return False
    return stat[stat.rfind(")") + 2] in "ZX"


def _wait_for(check: object, what: str) -> None:
    for _ in range(1000):  # bounded: 10 s
        if check():  # type: ignore[operator]
            return
        time.sleep(0.01)
    raise AssertionError(f"never: {what}")


@pytest.fixture
def slow(tmp_path: Path) -> Iterator[tuple[Path, Path, dict[str, str], Path]]:
    """(project, home, env with the sleeping fake claude on PATH, its pid file)."""
    project, home = make_project(tmp_path)
    pid_file = tmp_path / "claude.pid"
    bin_dir = tmp_path / "fake-bin"
    fake_llm(bin_dir, "claude", sleeper(pid_file))
    yield project, home, {"PATH": path_without_llms(bin_dir)}, pid_file
    if pid_file.exists() and not _gone(int(pid_file.read_text())):
        os.kill(int(pid_file.read_text()), signal.SIGKILL)


def _start_long_call(server: RawServer, pid_file: Path) -> None:
    """Acknowledge one write, then start compress: it runs until the fake claude is killed."""
    saved = server.tool("memory_remember", REMEMBER)
    assert not saved["result"]["isError"]
    server.send({"jsonrpc": "2.0", "id": "long", "method": "tools/call",
                 "params": {"name": "memory_compress", "arguments": {"key": "pool-leak"}}})  # fmt: skip
    _wait_for(pid_file.exists, "the fake claude started")


def _after_stop(project: Path, pid_file: Path) -> None:
    if PROC:  # children are found through /proc (elsewhere the fixture kills the fake)
        _wait_for(lambda: _gone(int(pid_file.read_text())), "the fake claude was stopped")
    memory = Memory(project)
    assert memory.get("pool-leak").content == "The worker pool leaks connections"
    assert [m for level, m in memory.doctor() if level == "error"] == []


def test_ping_answers_while_a_long_call_runs(slow: tuple[Path, Path, dict[str, str], Path]) -> None:
    project, home, env, pid_file = slow
    with RawServer(project, home, env) as server:
        _start_long_call(server, pid_file)
        for _ in range(3):
            server.ping()
        listed = server.request("tools/list")
        assert len(listed["result"]["tools"]) > 30
        assert server.close(EXIT_WAIT) == 0
    _after_stop(project, pid_file)


@pytest.mark.parametrize("how", ["sigterm", "close-stdin"])
def test_a_stop_mid_call_exits_without_waiting_for_it(
    slow: tuple[Path, Path, dict[str, str], Path], how: str
) -> None:
    project, home, env, pid_file = slow
    with RawServer(project, home, env) as server:
        _start_long_call(server, pid_file)
        code = server.terminate(EXIT_WAIT) if how == "sigterm" else server.close(EXIT_WAIT)
        assert code == 0
    _after_stop(project, pid_file)


def test_http_sigterm_mid_call(slow: tuple[Path, Path, dict[str, str], Path]) -> None:
    project, home, env, pid_file = slow
    with HttpServer(project, home, env) as server:
        session = server.session()
        saved = session.message(_tool_call(1, "memory_remember", REMEMBER))
        assert saved["result"]["isError"] is False
        long = _tool_call(2, "memory_compress", {"key": "pool-leak"})
        threading.Thread(target=session.post_quietly, args=(long,), daemon=True).start()
        _wait_for(pid_file.exists, "the fake claude started")
        assert session.message({"jsonrpc": "2.0", "id": 3, "method": "ping"})["result"] == {}
        assert server.terminate(EXIT_WAIT) == 0
    _after_stop(project, pid_file)


REMEMBER = {"category": "bug", "key": "pool-leak", "content": "The worker pool leaks connections"}


def _tool_call(id_: int, name: str, arguments: dict[str, object]) -> dict[str, object]:
    return {"jsonrpc": "2.0", "id": id_, "method": "tools/call",
            "params": {"name": name, "arguments": arguments}}  # fmt: skip
