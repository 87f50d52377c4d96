"""Session heartbeat files on real folders: fields, merging, bounds, bad files, windows."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toon_memory.errors import InputError
from toon_memory.model import heartbeat as M
from toon_memory.store import heartbeats as S

NOW = datetime(2026, 7, 15, 12, 0, 0, tzinfo=timezone.utc)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    return tmp_path / ".toon-memory" / "memory"


def test_beat_writes_the_session_file(folder: Path) -> None:
    session = S.beat(
        folder, "sess-A", agent="claude", branch="feature/x", files=["src/a.py"], pid=1234, now=NOW
    )
    data = json.loads((folder / "sessions" / "sess-A.json").read_text())
    assert data["id"] == "sess-A"
    assert data["agent"] == "claude"
    assert data["branch"] == "feature/x"
    assert data["files"] == ["src/a.py"]
    assert data["pid"] == 1234
    assert data["started"] == data["lastSeen"] == "2026-07-15T12:00:00Z"
    assert data["ended"] is False
    assert data["host"] == S.host_name()
    assert S.read_sessions(folder) == [session]


def test_a_second_beat_keeps_start_and_adds_files(folder: Path) -> None:
    S.beat(folder, "s1", agent="codex", branch="main", files=["a.py", "b.py"], now=NOW)
    later = NOW + timedelta(minutes=3)
    session = S.beat(folder, "s1", files=["./a.py", "c.py"], now=later)
    assert session.agent == "codex"  # None keeps what was recorded
    assert session.branch == "main"
    assert session.files == ("b.py", "a.py", "c.py")  # a.py touched again: moved last
    assert session.started == "2026-07-15T12:00:00Z"
    assert session.last_seen == "2026-07-15T12:03:00Z"


def test_files_and_notes_are_bounded_newest_kept(folder: Path) -> None:
    files = [f"src/f{i}.py" for i in range(M.MAX_FILES + 20)]
    notes = [(f"src/f{i}.py", f"note {i} " + "x" * 1000) for i in range(M.MAX_NOTES + 5)]
    session = S.beat(folder, "big", files=files, notes=notes, now=NOW)
    assert len(session.files) == M.MAX_FILES
    assert session.files[-1] == files[-1]
    assert session.files[0] == files[20]
    assert len(session.notes) == M.MAX_NOTES
    assert session.notes[-1].text.startswith(f"note {M.MAX_NOTES + 4} ")
    assert all(len(n.text) <= M.MAX_NOTE_CHARS for n in session.notes)
    assert S.read_sessions(folder)[0] == session


def test_absolute_paths_under_the_root_become_relative(folder: Path, tmp_path: Path) -> None:
    root = tmp_path / "repo"
    session = S.beat(folder, "s", files=[f"{root}/src/x.py", "/elsewhere/y.py"], root=root, now=NOW)
    assert session.files == ("src/x.py", "/elsewhere/y.py")


def test_corrupt_and_foreign_files_are_skipped(folder: Path) -> None:
    S.beat(folder, "good", agent="a", now=NOW)
    d = folder / "sessions"
    (d / "broken.json").write_text("{not json")
    (d / "list.json").write_text("[1, 2]")
    (d / "badpid.json").write_text(json.dumps({"id": "badpid", "pid": "12"}))
    (d / "renamed.json").write_text(json.dumps({"id": "other", "pid": 1}))
    (d / "traversal.json").write_text(json.dumps({"id": "../x", "pid": 1}))
    (d / "binary.json").write_bytes(b"\xff\xfe\x00")
    assert [s.id for s in S.read_sessions(folder)] == ["good"]
    assert [s.id for s in S.active_sessions(folder, now=NOW)] == ["good"]
    assert (d / "broken.json").exists()  # never deleted: it is not ours to judge


def test_a_beat_replaces_its_own_corrupt_file(folder: Path) -> None:
    d = folder / "sessions"
    d.mkdir(parents=True)
    (d / "mine.json").write_text("garbage")
    session = S.beat(folder, "mine", agent="claude", files=["a.py"], now=NOW)
    assert S.read_sessions(folder) == [session]


def test_no_folder_means_no_sessions(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere"
    assert S.read_sessions(missing) == []
    assert S.active_sessions(missing, now=NOW) == []
    assert S.end_session(missing, "x", now=NOW) is None


@pytest.mark.parametrize(
    "bad", ["", " ", "../etc", "a/b", "a\\b", ".hidden", "-x", "x" * 129, "a b", "é", "s\nt"]
)
def test_bad_session_ids_are_refused_naming_the_field(folder: Path, bad: str) -> None:
    with pytest.raises(InputError) as caught:
        S.beat(folder, bad, now=NOW)
    assert caught.value.field == "session_id"
    assert not (folder / "sessions").exists() or not any((folder / "sessions").glob("*.json"))


@given(st.text(max_size=40))
def test_any_accepted_id_stays_inside_the_sessions_folder(value: str) -> None:
    try:
        sid = M.check_session_id(value)
    except InputError:
        return
    path = S.session_path(Path("/m"), sid)
    assert path.parent == Path("/m/sessions")
    assert path.name == f"{sid}.json"
    assert "/" not in sid and "\\" not in sid and not sid.startswith(".")


def test_new_session_ids_are_valid_and_distinct() -> None:
    ids = {M.new_session_id("Claude Code/2"), M.new_session_id("Claude Code/2"), M.new_session_id()}
    assert len(ids) == 3
    for sid in ids:
        assert M.check_session_id(sid) == sid
    assert any(sid.startswith("Claude-Code-2-") for sid in ids)


def test_active_window(folder: Path) -> None:
    S.beat(folder, "fresh", now=NOW - timedelta(minutes=9))
    S.beat(folder, "old", now=NOW - timedelta(minutes=11))  # our own pid: alive, never pruned
    assert [s.id for s in S.active_sessions(folder, 10, NOW)] == ["fresh"]
    assert [s.id for s in S.active_sessions(folder, 30, NOW)] == ["fresh", "old"]
    assert (folder / "sessions" / "old.json").exists()


def test_end_session_releases_files_and_leaves_the_active_list(folder: Path) -> None:
    S.beat(folder, "a", files=["x.py"], notes=[("x.py", "retry loop is needed")], now=NOW)
    ended = S.end_session(folder, "a", now=NOW + timedelta(minutes=1))
    assert ended is not None and ended.ended and ended.files == ()
    assert ended.notes[0].text == "retry loop is needed"
    assert S.active_sessions(folder, now=NOW + timedelta(minutes=2)) == []
    assert S.read_sessions(folder)[0].ended
    revived = S.beat(folder, "a", now=NOW + timedelta(minutes=3))
    assert not revived.ended


def test_soft_conflicts_are_files_of_two_sessions() -> None:
    a = M.Session("a", files=("src/types.ts", "src/auth.ts"))
    b = M.Session("b", files=("src/types.ts", "src/db.ts", "src/auth.ts"))
    c = M.Session("c", files=("src/db.ts",))
    gone = M.Session("gone", files=("src/auth.py",), ended=True)
    lone = M.Session("lone", files=("src/auth.py",))
    assert M.soft_conflicts([a, b, c, gone, lone]) == {
        "src/auth.ts": ["a", "b"],
        "src/db.ts": ["b", "c"],
        "src/types.ts": ["a", "b"],
    }
    assert M.soft_conflicts([a]) == {}


def test_stale_sessions_are_the_unended_past_the_window() -> None:
    stamp = M.format_stamp
    fresh = M.Session("f", last_seen=stamp(NOW))
    old = M.Session("o", last_seen=stamp(NOW - timedelta(hours=1)))
    old_ended = M.Session("e", last_seen=stamp(NOW - timedelta(hours=1)), ended=True)
    unreadable = M.Session("u", last_seen="yesterday")
    assert [s.id for s in M.stale_sessions([fresh, old, old_ended, unreadable], 10, NOW)] == [
        "o",
        "u",
    ]


def test_stamps_round_trip_and_naive_times_are_utc() -> None:
    assert M.parse_stamp("2026-07-15T12:00:00Z") == NOW
    assert M.parse_stamp("2026-07-15T14:00:00+02:00") == NOW
    assert M.parse_stamp("nonsense") is None
    assert M.format_stamp(NOW.replace(tzinfo=None)) == "2026-07-15T12:00:00Z"
    assert M.clock_now().date().isoformat() == "2026-07-15"  # TOON_MEMORY_TODAY


@pytest.mark.parametrize("value", ["0", "1441", "ten", None, "2.5"])
def test_bad_windows_are_refused(value: object) -> None:
    with pytest.raises(InputError) as caught:
        M.check_window(value, "sessionWindowMinutes")
    assert caught.value.field == "sessionWindowMinutes"


def test_good_windows() -> None:
    assert M.check_window("10") == 10
    assert M.check_window(1440) == 1440


ids = st.from_regex(r"[A-Za-z0-9][A-Za-z0-9._-]{0,20}", fullmatch=True)
texts = st.text(max_size=30)
notes = st.builds(M.Note, file=texts, text=st.text(min_size=1, max_size=30), at=texts)
sessions = st.builds(
    M.Session,
    id=ids,
    agent=texts,
    branch=texts,
    files=st.lists(st.text(min_size=1, max_size=20), max_size=M.MAX_FILES).map(tuple),
    pid=st.integers(0, 2**31),
    host=texts,
    started=texts,
    last_seen=texts,
    ended=st.booleans(),
    notes=st.lists(notes, max_size=M.MAX_NOTES).map(tuple),
)


@given(sessions)
def test_a_session_survives_its_json_form(session: M.Session) -> None:
    assert M.session_from_dict(json.loads(json.dumps(session.to_dict()))) == session
