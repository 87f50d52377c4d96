"""The stdio server's pipes (``adapters.server.lines``): whatever way the bytes come, every
message is answered, every answer arrives whole, and the client's descriptors come back
as they were."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from tests.adapters.server.helpers import SERVER_CMD, make_project, server_env
from tests.adapters.server.rawstdio import INIT

from toon_memory import Memory

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX pipes")
WAIT = 30.0


def _line(message: dict[str, Any]) -> bytes:
    return json.dumps(message).encode() + b"\n"


def _call(n: int, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": n, "method": "tools/call",
            "params": {"name": name, "arguments": arguments}}  # fmt: skip


def _spawn(tmp_path: Path, **streams: Any) -> subprocess.Popen[bytes]:
    project, home = make_project(tmp_path)
    env = {**os.environ, **server_env(project, home)}
    return subprocess.Popen(SERVER_CMD, env=env, stderr=subprocess.DEVNULL,
                            **{"stdin": subprocess.PIPE, "stdout": subprocess.PIPE,
                               **streams})  # fmt: skip


def _answers(raw: bytes) -> dict[Any, dict[str, Any]]:
    return {message.get("id"): message for message in map(json.loads, raw.splitlines())}


def test_messages_cut_and_joined_anyhow_are_each_answered(tmp_path: Path) -> None:
    """Two messages in one write, one in three writes with pauses between, and a last
    one without its newline before the end of input: all answered, in one stream."""
    proc = _spawn(tmp_path)
    assert proc.stdin is not None
    remember = _line(_call(2, "memory_remember",
                           {"category": "bug", "key": "split", "content": "cut in three"}))  # fmt: skip
    proc.stdin.write(_line(INIT) + _line({"jsonrpc": "2.0", "method": "notifications/initialized"}))
    proc.stdin.flush()
    for piece in (remember[:7], remember[7:40], remember[40:]):
        proc.stdin.write(piece)
        proc.stdin.flush()
        time.sleep(0.2)
    proc.stdin.write(_line({"jsonrpc": "2.0", "id": 3, "method": "ping"})
                     + _line(_call(4, "memory_recall", {"query": "split"}))[:-1])  # fmt: skip
    out, _ = proc.communicate(timeout=WAIT)
    answers = _answers(out)
    assert set(answers) == {0, 2, 3, 4}
    assert not answers[2]["result"].get("isError")
    assert answers[3]["result"] == {}
    assert "cut in three" in answers[4]["result"]["content"][0]["text"]


def test_an_answer_larger_than_the_pipe_reaches_a_slow_reader_whole(tmp_path: Path) -> None:
    """The full dump of a memory (~300 KB, past a pipe's 64 KB buffer) while the client
    does not read for a while: it comes whole, then the ping asked after it."""
    project, _home = make_project(tmp_path)
    memory = Memory(project)
    for n in range(80):  # (distinct words: nothing is merged as a near duplicate)
        memory.remember("knowledge", f"note-{n}", " ".join(f"w{n}x{k}" for k in range(500)))
    memory.close()
    proc = _spawn(tmp_path)
    assert proc.stdin is not None and proc.stdout is not None
    read = {"jsonrpc": "2.0", "id": 5, "method": "resources/read",
            "params": {"uri": "toon://memory/entries"}}  # fmt: skip
    proc.stdin.write(
        _line(INIT) + _line(read) + _line({"jsonrpc": "2.0", "id": 6, "method": "ping"})
    )
    proc.stdin.flush()
    time.sleep(2.0)  # the answer fills the pipe meanwhile
    proc.stdin.close()
    with proc.stdout:
        answers = _answers(proc.stdout.read())
    assert proc.wait(timeout=WAIT) == 0
    text = answers[5]["result"]["contents"][0]["text"]
    assert len(text) > 256_000
    assert all(f"note-{n}" in text for n in range(80))
    assert answers[6]["result"] == {}


def test_files_for_stdin_and_stdout_are_served_too(tmp_path: Path) -> None:
    """A file is not a pipe (no readiness to await): read and written the blocking way."""
    script, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    script.write_bytes(_line(INIT) + _line(_call(2, "memory_remember",
                       {"category": "decision", "key": "files", "content": "from a file"})))  # fmt: skip
    with script.open("rb") as stdin, out.open("wb") as stdout:
        proc = _spawn(tmp_path, stdin=stdin, stdout=stdout)
        assert proc.wait(timeout=WAIT) == 0
    answers = _answers(out.read_bytes())
    assert set(answers) == {0, 2}
    assert not answers[2]["result"].get("isError")


RELEASE = """
import os, sys
from toon_memory.adapters.server.lines import Pipes
pipes = Pipes()
claimed = [os.path.samestat(os.fstat(0), os.stat(os.devnull)), os.get_blocking(pipes.lines._source)]
pipes.release()
print(claimed, os.get_blocking(0), os.get_blocking(1), os.fstat(0).st_ino != os.stat(os.devnull).st_ino,
      file=sys.stderr)
"""


def test_release_gives_the_client_its_pipes_back_as_they_were(tmp_path: Path) -> None:
    """While claimed, fd 0 reads the null device and the private copy does not block;
    after ``release`` fd 0 and fd 1 are the client's pipes again, blocking as before."""
    found = subprocess.run([sys.executable, "-c", RELEASE], input=b"", capture_output=True,
                           timeout=WAIT, check=True)  # fmt: skip
    assert found.stderr.decode().split() == ["[True,", "False]", "True", "True", "True"]


@pytest.mark.parametrize("how", ["close-stdin", "sigterm"])
def test_the_client_gets_its_pipes_back_blocking_however_the_server_ends(
    tmp_path: Path, how: str
) -> None:
    """The server reads and writes its pipes non-blocking; the flag is the pipe's, shared
    with whoever else holds that end (a wrapper, the client): it is put back on exit,
    whether stdin ends or a SIGTERM stops the server."""
    read_in, write_in = os.pipe()
    read_out, write_out = os.pipe()
    try:
        proc = _spawn(tmp_path, stdin=read_in, stdout=write_out)
        os.write(write_in, _line(INIT))
        with os.fdopen(os.dup(read_out), "rb") as answers:
            assert json.loads(answers.readline())["id"] == 0
        if how == "sigterm":
            proc.send_signal(signal.SIGTERM)
        else:
            os.close(write_in)
        assert proc.wait(timeout=WAIT) == 0
        assert os.get_blocking(read_in) and os.get_blocking(write_out)
    finally:
        for fd in (read_in, write_in, read_out, write_out):
            with contextlib.suppress(OSError):
                os.close(fd)
