"""The captured activity log: append, read, bounded size with one rotated file, clear."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from toon_memory.store import captured as C


def test_capture_then_read(tmp_path: Path) -> None:
    C.capture(tmp_path, {"session": "s1", "tool": "Edit", "file": "src/a.py", "summary": "edit a"})
    C.capture(tmp_path, {"ts": "2026-07-15T10:00:00Z", "session": "s2", "summary": "b"})
    events = C.read_captured(tmp_path)
    assert [e["summary"] for e in events] == ["edit a", "b"]
    assert events[0]["ts"].startswith("2026-07-15T")  # stamped by clock.now_iso
    assert next(iter(events[0])) == "ts"
    assert events[1]["ts"] == "2026-07-15T10:00:00Z"
    assert C.read_captured(tmp_path, session="s2") == [events[1]]
    assert C.read_captured(tmp_path, file="a.py") == [events[0]]
    assert C.read_captured(tmp_path, limit=1) == [events[1]]
    assert C.read_captured(tmp_path, limit=0) == []


def test_nothing_captured(tmp_path: Path) -> None:
    assert C.read_captured(tmp_path / "none") == []
    assert C.clear_captured(tmp_path / "none") == 0


def test_values_are_bounded_and_made_json(tmp_path: Path) -> None:
    C.capture(
        tmp_path,
        {"summary": "x" * 10_000, "args": {"a": [1, 2]}, "n": 3, "ok": True, "path": Path("p")},
    )
    (event,) = C.read_captured(tmp_path)
    assert len(event["summary"]) == C.MAX_VALUE_CHARS
    assert event["args"] == '{"a": [1, 2]}'
    assert event["n"] == 3 and event["ok"] is True
    assert event["path"] == '"p"'


def test_the_log_rotates_and_keeps_one_old_file(tmp_path: Path) -> None:
    tmp_path = tmp_path / "memory"
    limit = 2_000
    for i in range(200):
        C.capture(tmp_path, {"ts": "t", "n": i, "summary": "some activity"}, max_bytes=limit)
        assert C.log_path(tmp_path).stat().st_size <= limit
    assert C.rotated_path(tmp_path).stat().st_size <= limit
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.endswith(".lock")) == [
        "captured.1.jsonl",
        "captured.jsonl",
    ]
    numbers = [e["n"] for e in C.read_captured(tmp_path, None)]
    assert numbers == list(range(numbers[0], 200))  # the newest, in order, no gaps
    assert 200 - len(numbers) > 100  # the oldest were dropped


def test_a_torn_line_is_skipped(tmp_path: Path) -> None:
    C.capture(tmp_path, {"summary": "one"})
    with C.log_path(tmp_path).open("ab") as handle:
        handle.write(b'{"summary": "torn')
    C.capture(tmp_path, {"summary": "two"})  # appended after the torn bytes, on the same line
    C.capture(tmp_path, {"summary": "three"})
    assert [e["summary"] for e in C.read_captured(tmp_path)] == ["one", "three"]


def test_clear_removes_both_files(tmp_path: Path) -> None:
    for i in range(50):
        C.capture(tmp_path, {"n": i}, max_bytes=500)
    total = len(C.read_captured(tmp_path, None))
    assert C.clear_captured(tmp_path) == total
    assert C.read_captured(tmp_path) == []
    assert not C.log_path(tmp_path).exists() and not C.rotated_path(tmp_path).exists()


WRITER = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from toon_memory.store.captured import capture

    folder, tag = Path(sys.argv[1]), sys.argv[2]
    for i in range(300):
        capture(folder, {"session": tag, "n": i, "summary": "activity " * 5}, max_bytes=20_000)
    """
)


def test_concurrent_writers_never_interleave_lines(tmp_path: Path) -> None:
    procs = [
        subprocess.Popen([sys.executable, "-c", WRITER, str(tmp_path), f"w{n}"]) for n in range(5)
    ]
    assert [p.wait(timeout=120) for p in procs] == [0] * 5
    for path in (C.log_path(tmp_path), C.rotated_path(tmp_path)):
        lines = path.read_bytes().splitlines()
        assert all(isinstance(json.loads(line), dict) for line in lines)
        assert path.stat().st_size <= 20_000 + 200
    events = C.read_captured(tmp_path, None)
    for tag in (f"w{n}" for n in range(5)):
        numbers = [e["n"] for e in events if e["session"] == tag]
        assert numbers == sorted(numbers)  # each writer's events in its own order
    assert events[-1]["n"] >= 0


@settings(max_examples=60, deadline=None)
@given(
    st.dictionaries(
        st.text(min_size=1, max_size=10),
        st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=50)),
        max_size=6,
    )
)
def test_any_event_encodes_to_one_json_line(event: dict[str, object]) -> None:
    data = C.encode_event(event)
    assert data.endswith(b"\n") and data.count(b"\n") == 1
    decoded = json.loads(data)
    assert decoded["ts"]
    for key, value in event.items():
        if key != "ts":
            assert decoded[key] == value


def test_same_file() -> None:
    assert C.same_file("src/a.py", "./src/a.py")
    assert C.same_file("/repo/src/a.py", "src/a.py")
    assert C.same_file("src\\a.py", "src/a.py")
    assert not C.same_file("src/aa.py", "a.py")
    assert not C.same_file("", "a.py")
