"""Several real processes beating at once, and the cleanup of sessions whose process died."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from datetime import datetime, timedelta, timezone
from pathlib import Path

from toon_memory.model import heartbeat as M
from toon_memory.store import heartbeats as S

NOW = datetime(2026, 7, 15, 12, 0, 0, tzinfo=timezone.utc)

BEATER = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from toon_memory.store.heartbeats import beat

    folder, sid, tag, rounds = Path(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4])
    for i in range(rounds):
        beat(folder, sid, agent=f"agent-{tag}", branch=f"branch-{tag}",
             files=[f"src/{tag}-{i}.py", "src/shared.py"], notes=[("src/shared.py", f"{tag} {i}")])
    """
)


def _spawn(folder: Path, sid: str, tag: str, rounds: int) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-c", BEATER, str(folder), sid, tag, str(rounds)])


def test_parallel_sessions_each_write_their_own_file(tmp_path: Path) -> None:
    folder = tmp_path / "memory"
    procs = [_spawn(folder, f"sess-{n}", str(n), 15) for n in range(6)]
    assert [p.wait(timeout=120) for p in procs] == [0] * 6
    found = {s.id: s for s in S.read_sessions(folder)}
    assert sorted(found) == [f"sess-{n}" for n in range(6)]
    for n in range(6):
        session = found[f"sess-{n}"]
        assert session.agent == f"agent-{n}"
        assert session.branch == f"branch-{n}"
        assert len(session.files) == 16
        assert session.files[-1] == "src/shared.py"
        assert [note.text for note in session.notes] == [f"{n} {i}" for i in range(15)]
    conflicts = M.soft_conflicts(found.values())
    assert conflicts == {"src/shared.py": sorted(found)}
    assert not list((folder / "sessions").glob("*.tmp"))


def test_processes_sharing_one_session_lose_nothing(tmp_path: Path) -> None:
    """Hooks of one agent session run as separate, overlapping processes."""
    folder = tmp_path / "memory"
    procs = [_spawn(folder, "shared", str(n), 5) for n in range(4)]
    assert [p.wait(timeout=120) for p in procs] == [0] * 4
    (session,) = S.read_sessions(folder)
    expected = {f"src/{n}-{i}.py" for n in range(4) for i in range(5)} | {"src/shared.py"}
    assert set(session.files) == expected
    assert len(session.notes) == 20


def _dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    pid = proc.pid
    proc.kill()
    proc.wait(timeout=30)  # reaped: the pid names no process now
    return pid


def test_a_session_whose_process_died_is_removed_once_past_the_window(tmp_path: Path) -> None:
    folder = tmp_path / "memory"
    pid = _dead_pid()
    S.beat(folder, "dead", agent="claude", files=["a.py"], pid=pid, now=NOW)
    # within the window: still listed, still on disk, though its process is gone
    assert [s.id for s in S.active_sessions(folder, 10, NOW + timedelta(minutes=5))] == ["dead"]
    assert S.prune_sessions(folder, 10, NOW + timedelta(minutes=5)) == []
    # past the window: removed lazily by the next reader
    assert S.active_sessions(folder, 10, NOW + timedelta(minutes=11)) == []
    assert not (folder / "sessions" / "dead.json").exists()


def test_a_stale_session_whose_process_lives_is_kept(tmp_path: Path) -> None:
    folder = tmp_path / "memory"
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        S.beat(folder, "idle", pid=proc.pid, now=NOW)
        later = NOW + timedelta(hours=2)
        assert S.active_sessions(folder, 10, later) == []  # not active…
        assert S.prune_sessions(folder, 10, later) == []  # …but not removed either
        assert (folder / "sessions" / "idle.json").exists()
        proc.kill()
        proc.wait(timeout=30)
        assert S.prune_sessions(folder, 10, later) == ["idle"]
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=30)


def test_a_session_of_another_host_waits_a_day(tmp_path: Path) -> None:
    folder = tmp_path / "memory"
    S.beat(folder, "remote", pid=_dead_pid(), now=NOW)
    path = folder / "sessions" / "remote.json"
    path.write_text(path.read_text().replace(f'"host": "{S.host_name()}"', '"host": "far-away"'))
    assert S.read_sessions(folder)[0].host == "far-away"
    assert S.prune_sessions(folder, 10, NOW + timedelta(hours=3)) == []
    assert S.prune_sessions(folder, 10, NOW + timedelta(days=2)) == ["remote"]


def test_pid_alive() -> None:
    import os

    assert S.pid_alive(os.getpid())
    assert not S.pid_alive(_dead_pid())
    assert not S.pid_alive(0)
    assert not S.pid_alive(-5)
