"""``model.heartbeat``: a session id is a safe file stem, a session is active while not ended
and seen within the window, a soft conflict is a file two live sessions touched, and files and
notes are bounded (newest kept). "Now" is always an argument."""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toon_memory.errors import InputError
from toon_memory.model.heartbeat import (
    MAX_FILES,
    MAX_NOTE_CHARS,
    MAX_NOTES,
    Note,
    Session,
    add_files,
    add_notes,
    as_utc,
    check_session_id,
    check_window,
    clock_now,
    format_stamp,
    is_active,
    is_stale,
    new_session_id,
    normalize_path,
    parse_stamp,
    session_from_dict,
    soft_conflicts,
    stale_sessions,
)

NOW = datetime(2026, 7, 15, 12, 0, 0, tzinfo=timezone.utc)


def seen(minutes_ago: float, **fields: object) -> Session:
    stamp = format_stamp(NOW - timedelta(minutes=minutes_ago))
    return Session(id=str(fields.pop("id", "s1")), last_seen=stamp, **fields)  # type: ignore[arg-type]


@pytest.mark.parametrize("value", ["claude-4f2a9c1b", "a", "A.b_c-d", "9" * 128])
def test_safe_ids_pass(value: str) -> None:
    assert check_session_id(f" {value} ") == value


@pytest.mark.parametrize("value", ["", "../etc", "a/b", "a\\b", ".hidden", "-x", "9" * 129,
                                   "a b", "é"])  # fmt: skip
def test_unsafe_ids_name_the_field(value: str) -> None:
    with pytest.raises(InputError) as caught:
        check_session_id(value)
    assert caught.value.field == "session_id"


@given(st.text(max_size=60))
def test_new_session_ids_are_always_safe(agent: str) -> None:
    made = new_session_id(agent)
    assert check_session_id(made) == made
    assert re.search(r"-[0-9a-f]{8}$", made)


def test_window_is_whole_minutes_within_a_day() -> None:
    assert check_window(10) == 10 and check_window("1440") == 1440
    for bad in (0, 1441, "soon"):
        with pytest.raises(InputError) as caught:
            check_window(bad, "sessionWindowMinutes")
        assert caught.value.field == "sessionWindowMinutes"


@pytest.mark.parametrize(("text", "expected"),
                         [("2026-07-15T10:00:00Z", datetime(2026, 7, 15, 10, tzinfo=timezone.utc)),
                          ("2026-07-15T12:00:00+02:00", datetime(2026, 7, 15, 10, tzinfo=timezone.utc)),
                          ("2026-07-15T10:00:00", datetime(2026, 7, 15, 10, tzinfo=timezone.utc))])  # fmt: skip
def test_parse_stamp(text: str, expected: datetime) -> None:
    assert parse_stamp(text) == expected


@pytest.mark.parametrize("text", ["", "  ", "yesterday", "2026-13-01T00:00:00Z"])
def test_an_unreadable_stamp_is_none(text: str) -> None:
    assert parse_stamp(text) is None


@given(st.datetimes(min_value=datetime(1970, 1, 1), max_value=datetime(9999, 1, 1),
                    timezones=st.just(timezone.utc)))  # fmt: skip
def test_format_and_parse_stamp_round_trip_to_the_second(moment: datetime) -> None:
    assert parse_stamp(format_stamp(moment)) == moment.replace(microsecond=0)


def test_as_utc_keeps_aware_and_marks_naive() -> None:
    naive = datetime(2026, 1, 1, 8)
    assert as_utc(naive).tzinfo is timezone.utc and as_utc(NOW) is NOW
    assert clock_now().date().isoformat() == "2026-07-15"


def test_active_and_stale_at_the_window_edges() -> None:
    assert is_active(seen(10), 10, NOW) and not is_stale(seen(10), 10, NOW)
    assert not is_active(seen(10.5), 10, NOW) and is_stale(seen(10.5), 10, NOW)
    assert not is_active(seen(1, ended=True), 10, NOW)
    unreadable = Session(id="s", last_seen="garbage")
    assert not is_active(unreadable, 10, NOW) and is_stale(unreadable, 10, NOW)
    assert seen(3).age(NOW.replace(tzinfo=None)) == timedelta(minutes=3)


def test_stale_sessions_leave_out_ended_ones() -> None:
    sessions = [seen(30, id="crashed"), seen(30, id="done", ended=True), seen(1, id="live")]
    assert [s.id for s in stale_sessions(sessions, 10, NOW)] == ["crashed"]


def test_soft_conflicts_are_files_of_two_live_sessions() -> None:
    sessions = [Session(id="b", files=("app.py", "db.py")), Session(id="a", files=("app.py",)),
                Session(id="c", files=("db.py",), ended=True),
                Session(id="b", files=("app.py",))]  # fmt: skip
    assert soft_conflicts(sessions) == {"app.py": ["a", "b"]}


@given(st.lists(st.tuples(st.sampled_from("abcd"), st.sets(st.sampled_from("xyz")),
                          st.booleans()), max_size=6))  # fmt: skip
def test_soft_conflicts_property(rows: list[tuple[str, set[str], bool]]) -> None:
    sessions = [Session(id=i, files=tuple(sorted(f)), ended=e) for i, f, e in rows]
    conflicts = soft_conflicts(sessions)
    for file in "xyz":
        owners = sorted({s.id for s in sessions if not s.ended and file in s.files})
        assert conflicts.get(file, []) == (owners if len(owners) >= 2 else [])


def test_normalize_path() -> None:
    root = Path("/repo")
    assert normalize_path("/repo/src/app.py", root) == "src/app.py"
    assert normalize_path("/other/app.py", root) == "/other/app.py"
    assert normalize_path(".\\src\\\\app.py") == "src/app.py"
    assert normalize_path("././a//b") == "a/b"


def test_add_files_moves_a_touched_file_last_and_keeps_the_newest() -> None:
    assert add_files(("a", "b"), ["a", "", "c"], None) == ("b", "a", "c")
    many = add_files((), [f"f{i}" for i in range(MAX_FILES + 5)], None)
    assert len(many) == MAX_FILES and many[-1] == f"f{MAX_FILES + 4}" and many[0] == "f5"


def test_add_notes_folds_whitespace_bounds_and_drops_empty() -> None:
    notes = add_notes((), [("/r/a.py", " fixed \n the  bug "), ("b", "   "),
                           ("c", "x" * (MAX_NOTE_CHARS + 9))], "T", Path("/r"))  # fmt: skip
    assert notes[0] == Note("a.py", "fixed the bug", "T")
    assert len(notes) == 2 and len(notes[1].text) == MAX_NOTE_CHARS
    many = add_notes((), [("f", str(i)) for i in range(MAX_NOTES + 3)], "T", None)
    assert len(many) == MAX_NOTES and many[0].text == "3"


def test_session_dict_round_trip() -> None:
    session = Session(id="codex-1", agent="codex", branch="main", files=("a.py",), pid=42,
                      host="h", started="2026-07-15T10:00:00Z", last_seen="2026-07-15T11:00:00Z",
                      ended=True, notes=(Note("a.py", "t", "2026-07-15T11:00:00Z"),))  # fmt: skip
    assert session_from_dict(session.to_dict()) == session


def test_session_from_dict_drops_junk_and_bounds_lists() -> None:
    session = session_from_dict({"id": "s", "files": ["a", 3, "", *[f"f{i}" for i in range(60)]],
                                 "notes": [{"text": ""}, "junk", {"text": "kept"}],
                                 "ended": "yes", "agent": None})  # fmt: skip
    assert len(session.files) == MAX_FILES and 3 not in session.files
    assert [n.text for n in session.notes] == ["kept"] and session.ended is False
    assert session.agent == ""


@pytest.mark.parametrize("pid", ["42", True, 1.5])
def test_a_bad_pid_names_the_field(pid: object) -> None:
    with pytest.raises(ValueError, match=r"^pid: expected a whole number"):
        session_from_dict({"id": "s", "pid": pid})


def test_a_bad_session_id_in_a_file_is_refused() -> None:
    with pytest.raises(InputError):
        session_from_dict({"id": "../../x"})
