"""``toon-memory watch``: a real subprocess with a short interval backs up changes only,
gzips, rotates, logs, and stops cleanly (SIGTERM, Ctrl+C, stdin closed, parent gone) with a
summary. Waits poll with generous deadlines; nothing asserts on time."""

from __future__ import annotations

import gzip
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import toon_format
from tests.conftest import run_cli

from toon_memory import InputError, Memory
from toon_memory.store.watch_backups import list_watch_backups

INTERVAL = "0.005"  # minutes: a check every 0.3 s


def wait_for(what: Callable[[], object], message: str, limit: float = 60.0) -> None:
    deadline = time.monotonic() + limit
    while not what():
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up waiting: {message}")
        time.sleep(0.05)


def env_for(project: Path) -> dict[str, str]:
    return {**os.environ, "TOON_MEMORY_PROJECT": str(project)}


@pytest.fixture
def started(project: Path) -> Iterator[Callable[..., subprocess.Popen[str]]]:
    """Start ``watch`` with extra arguments; waits until it is running (handlers in place)."""
    procs: list[subprocess.Popen[str]] = []

    def start(*args: str, stdin: int = subprocess.DEVNULL) -> subprocess.Popen[str]:
        proc = subprocess.Popen(
            [sys.executable, "-m", "toon_memory", "watch", "--interval", INTERVAL, *args],
            stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env=env_for(project),
        )  # fmt: skip
        procs.append(proc)
        assert proc.stderr is not None
        line = proc.stderr.readline()
        assert line.startswith("watching "), line + proc.stderr.read()
        return proc

    yield start
    for proc in procs:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()


def finish(proc: subprocess.Popen[str], sig: int | None) -> tuple[int, str]:
    if sig is not None:
        proc.send_signal(sig)
    assert proc.stdout is not None
    out = proc.stdout.read()
    return proc.wait(timeout=60), out


def test_backs_up_changes_only_rotates_logs_and_stops_on_sigterm(
    project: Path, started: Callable[..., subprocess.Popen[str]]
) -> None:
    memory = Memory(project)
    memory.remember("knowledge", "first", "The first thing")
    proc = started("--log", "--max-backups", "2", "--json")
    wait_for(lambda: len(list_watch_backups(memory.paths)) == 1, "the first backup")
    log = memory.paths.folder / "watch.log"
    memory.recall("first")  # access counts alone are no change
    wait_for(lambda: log.read_text().count("no change") >= 2, "checks that found no change")
    memory.remember("knowledge", "second", "The second thing")
    wait_for(lambda: any("second" in p.read_text() for p in list_watch_backups(memory.paths)),
             "a backup holding the second entry")  # fmt: skip
    memory.remember("knowledge", "third", "The third thing")
    wait_for(lambda: "pruned" in log.read_text(), "pruning")
    code, out = finish(proc, signal.SIGTERM)
    summary = json.loads(out)
    assert code == 0 and summary["reason"] == "SIGTERM"
    assert len(summary["backups"]) == 3 and len(summary["pruned"]) == 1
    assert summary["checks"] > 3
    kept = list_watch_backups(memory.paths)
    assert [str(p) for p in kept] == summary["backups"][:0:-1]
    newest = toon_format.loads(kept[0].read_text(), strict=True)
    assert {r["key"] for r in newest["entries"]} == {"first", "second", "third"}
    lines = log.read_text().splitlines()
    assert "started: every 0.005 min, keeping 2" in lines[0]
    assert sum("backup watch-" in line for line in lines) == 3
    assert sum("no change" in line for line in lines) == summary["checks"] - 3
    assert "stopped (SIGTERM): " in lines[-1]


def test_compressed_backups_and_ctrl_c(project: Path,
                                      started: Callable[..., subprocess.Popen[str]]) -> None:  # fmt: skip
    memory = Memory(project)
    memory.remember("decision", "gz", "Compressed backups")
    proc = started("--compress", "--max-backups", "0", "--log", str(project / "w.log"))
    wait_for(lambda: list_watch_backups(memory.paths), "a backup")
    code, out = finish(proc, signal.SIGINT)
    assert code == 0 and "watch stopped (SIGINT)" in out and "1 backup written" in out
    (backup,) = list_watch_backups(memory.paths)
    assert backup.name.endswith(".toon.gz")
    text = gzip.decompress(backup.read_bytes()).decode()
    assert toon_format.loads(text, strict=True)["entries"][0]["key"] == "gz"
    assert "backup watch-" in (project / "w.log").read_text()


def test_stops_when_stdin_closes(project: Path,
                                 started: Callable[..., subprocess.Popen[str]]) -> None:  # fmt: skip
    Memory(project).remember("knowledge", "k", "v")
    proc = started(stdin=subprocess.PIPE)
    assert proc.stdin is not None
    proc.stdin.close()
    code, out = finish(proc, None)
    assert code == 0 and "watch stopped (stdin closed)" in out


def test_exits_when_its_parent_goes_away(project: Path, tmp_path: Path) -> None:
    Memory(project).remember("knowledge", "k", "v")
    out = tmp_path / "watch.out"
    spawn = (
        "import subprocess, sys\n"
        f"p = subprocess.Popen([sys.executable, '-m', 'toon_memory', 'watch', '--interval', "
        f"'{INTERVAL}'], stdin=subprocess.DEVNULL, stdout=open({str(out)!r}, 'w'), "
        "stderr=subprocess.PIPE, text=True)\n"
        "print(p.pid, p.stderr.readline().strip(), flush=True)\n"  # running: handlers set
    )  # fmt: skip
    parent = subprocess.run([sys.executable, "-c", spawn], capture_output=True, text=True,
                            env=env_for(project), timeout=60, check=True)  # fmt: skip
    assert "watching" in parent.stdout
    wait_for(lambda: "watch stopped (parent process exited)" in out.read_text(),
             "the orphaned watcher to stop")  # fmt: skip


def test_a_restarted_watch_does_not_repeat_a_backup(
    project: Path, started: Callable[..., subprocess.Popen[str]]
) -> None:
    memory = Memory(project)
    memory.remember("knowledge", "k", "v")
    first = started("--json")
    wait_for(lambda: list_watch_backups(memory.paths), "a backup")
    finish(first, signal.SIGTERM)
    second = started("--json")
    code, out = finish(second, signal.SIGTERM)
    summary = json.loads(out)
    assert code == 0 and summary["checks"] >= 1 and summary["backups"] == []
    assert len(list_watch_backups(memory.paths)) == 1


def test_invalid_arguments(project: Path) -> None:
    for args in (("--interval", "0"), ("--max-backups", "-1"), ("--interval", "soon")):
        done = run_cli("watch", *args, project=project, timeout=30)
        assert done.returncode == 2 and "Invalid value" in done.stderr
    assert not list_watch_backups(Memory(project).paths)


def test_watcher_api(project: Path) -> None:
    memory = Memory(project)
    assert memory.sharing.watcher().check() is None  # nothing written yet: nothing to back up
    assert not memory.paths.folder.exists()
    memory.remember("knowledge", "k", "v")
    watcher = memory.sharing.watcher(interval_minutes=1, max_backups=1)
    first = watcher.check()
    assert first is not None and watcher.check() is None
    memory.remember("knowledge", "k2", "v2")
    second = watcher.check()
    assert second is not None and not first.exists()
    assert watcher.summary.checks == 3 and watcher.summary.pruned == [first]
    with pytest.raises(InputError) as caught:
        memory.sharing.watcher(max_backups=-1)
    assert caught.value.field == "max_backups"
    with pytest.raises(InputError):
        memory.sharing.watcher(interval_minutes=0)
