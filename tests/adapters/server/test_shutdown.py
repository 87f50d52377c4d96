"""``shutdown.children``: this process's children, read from a ``/proc`` tree (a fake one here)."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from toon_memory.adapters.server.shutdown import children, stop_children


def _proc(root: Path, pid: int, name: str, parent: int) -> None:
    (root / str(pid)).mkdir(parents=True)
    (root / str(pid) / "stat").write_text(f"{pid} ({name}) S {parent} {pid} {pid} 0 -1 0")


def test_children_are_the_processes_whose_parent_is_given(tmp_path: Path) -> None:
    _proc(tmp_path, 10, "toon-memory", 1)
    _proc(tmp_path, 11, "claude", 10)
    _proc(tmp_path, 12, "git (x) y", 10)  # a name with spaces and parentheses
    _proc(tmp_path, 13, "node", 11)  # a grandchild: stopped with its group, not listed
    (tmp_path / "self").mkdir()
    (tmp_path / "14").mkdir()  # vanished before its stat could be read
    assert sorted(children(10, tmp_path)) == [11, 12]
    assert children(99, tmp_path) == []
    assert children(10, tmp_path / "missing") == []


PARENT = """
import subprocess, sys, time
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"],
                         start_new_session=True)
print(child.pid, flush=True)
time.sleep(60)
"""


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")
def test_stop_children_stops_a_real_child_with_its_group() -> None:
    """A parent (not this test process: its other children must live) and its child."""
    parent = subprocess.Popen([sys.executable, "-c", PARENT], stdout=subprocess.PIPE, text=True)
    assert parent.stdout is not None
    try:
        pid = int(parent.stdout.readline())
        assert stop_children(parent.pid) == [pid]
        for _ in range(2000):  # bounded: 20 s
            stat = Path(f"/proc/{pid}/stat")
            if not stat.exists() or stat.read_text().rsplit(")", 1)[1].split()[0] == "Z":
                break
            time.sleep(0.01)
        else:
            raise AssertionError("the child was not stopped")
    finally:
        parent.kill()
        parent.wait()
        parent.stdout.close()
