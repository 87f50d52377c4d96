"""A damaged journal never bricks a memory: readable lines replay, the rest is kept aside.

Issue 14, item 1: a garbage line in the middle, a torn line followed by a
newline, and a torn tail. Every readable line is replayed, the unreadable
bytes are moved to a kept ``journal.broken-<time>`` file and reported once
(``Memory.notices()``, the CLI's stderr, ``doctor``), and ``restore`` leaves
a clean journal behind.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.conftest import no_entry_cap, run_cli

from toon_memory import Memory
from toon_memory.store import journal
from toon_memory.store.paths import MemoryPaths

GARBAGE = b"\x00\xffnot json at all {{{\n"
TORN = b'{"op":"put","entry":{"id":"deadbeef","key":"to\n'


def journaling_memory(project: Path) -> Memory:
    """A memory past the eager-compaction size, so new writes stay in journal.jsonl."""
    no_entry_cap(project)
    memory = Memory(project)
    rows = [{"key": f"seed-{n}", "content": "seed " + "y" * 200} for n in range(400)]
    memory.import_rows(rows)
    memory.compact()
    for key in ("first", "second", "third"):
        memory.remember("knowledge", key, f"the {key} write after the snapshot")
    assert len(_journal(project).read_bytes().splitlines()) == 3
    return memory


def _journal(project: Path) -> Path:
    return MemoryPaths.for_project(project).journal


def _insert(project: Path, after_line: int, junk: bytes) -> None:
    path = _journal(project)
    lines = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join(lines[:after_line]) + junk + b"".join(lines[after_line:]))


def _broken_files(project: Path) -> list[Path]:
    return sorted(MemoryPaths.for_project(project).folder.glob("journal.broken-*"))


def _keys(memory: Memory) -> set[str]:
    return {e.key for e in memory.entries()}


@pytest.mark.parametrize(
    ("after_line", "junk"),
    [(1, GARBAGE), (1, TORN), (3, TORN)],
    ids=["garbage-in-the-middle", "torn-line-and-newline", "torn-line-and-newline-at-end"],
)
def test_unreadable_lines_are_set_aside_and_the_rest_replayed(
    project: Path, after_line: int, junk: bytes
) -> None:
    journaling_memory(project)
    _insert(project, after_line, junk)

    memory = Memory(project)
    assert {"first", "second", "third"} <= _keys(memory)
    notes = memory.notices()
    (kept,) = _broken_files(project)
    assert kept.read_bytes() == junk
    assert len(notes) == 1 and str(kept) in notes[0] and "1 unreadable line" in notes[0]
    assert memory.notices() == []  # reported once
    assert Memory(project).notices() == []  # and not again by the next process
    assert junk not in _journal(project).read_bytes()
    memory.remember("knowledge", "fourth", "a write after the damage")
    again = Memory(project)
    assert {"first", "second", "third", "fourth"} <= _keys(again)
    assert not any(level == "error" for level, _ in again.doctor())


def test_torn_tail_is_not_replayed_and_the_next_write_goes_on(project: Path) -> None:
    journaling_memory(project)
    path = _journal(project)
    path.write_bytes(path.read_bytes() + b'{"op":"put","entry":{"id":"0000')  # no newline

    memory = Memory(project)
    assert {"first", "second", "third"} <= _keys(memory)
    assert memory.notices() == []  # a write never acknowledged is not damage
    memory.remember("knowledge", "fourth", "a write after the torn tail")
    lines = path.read_bytes().splitlines()
    assert all(json.loads(line)["op"] for line in lines)
    assert {"first", "second", "third", "fourth"} <= _keys(Memory(project))


def test_doctor_names_damage_before_it_is_moved(project: Path) -> None:
    journaling_memory(project)
    _insert(project, 2, GARBAGE)
    report = Memory(project).doctor()  # doctor only reads: nothing is moved yet
    warnings = [text for level, text in report if level == "warn"]
    assert any("1 unreadable line(s) (line 3)" in text for text in warnings)
    assert not any(level == "error" for level, _ in report)
    assert _broken_files(project) == []


def test_cli_reports_the_set_aside_once_and_keeps_working(project: Path) -> None:
    journaling_memory(project)
    _insert(project, 1, GARBAGE)
    done = run_cli("recall", "second write", "--json", project=project)
    assert done.returncode == 0, done.stderr
    assert "journal.broken-" in done.stderr and "Traceback" not in done.stderr
    assert "second" in {r["key"] for r in json.loads(done.stdout)["results"]}
    _insert(project, 1, GARBAGE)  # a failing command reports the set-aside too
    missing = run_cli("get", "no-such-key", project=project)
    assert missing.returncode == 2 and missing.stderr.count("journal.broken-") == 1
    assert missing.stderr.splitlines()[-1].startswith("error: id_or_key: ")
    again = run_cli("stats", project=project)
    assert again.returncode == 0 and "journal.broken-" not in again.stderr
    doctor = run_cli("doctor", project=project)
    assert doctor.returncode == 0 and "journal.broken-" in doctor.stdout


def test_restore_replays_the_readable_journal_and_sets_the_rest_aside(project: Path) -> None:
    memory = journaling_memory(project)
    backup = memory.backup()
    memory.remember("knowledge", "after-backup", "written after the backup, journal only")
    _insert(project, 2, GARBAGE)
    data = MemoryPaths.for_project(project).data
    data.write_text(data.read_text().replace("version: 1", "version: 1\n  broken"))

    restored, kept = Memory(project).restore()
    assert restored == backup and kept is not None and kept.exists()
    assert len(_broken_files(project)) == 1
    after = Memory(project)
    assert {"first", "second", "third", "after-backup"} <= _keys(after)
    assert not any(level == "error" for level, _ in after.doctor())


_OPS = st.one_of(
    st.builds(lambda i: journal.delete(f"{i:08x}"), st.integers(0, 2**32 - 1)),
    st.builds(lambda f, t: journal.put_summary(f, t, "2026-07-15"), st.text(max_size=20),
              st.text(max_size=40)),
)  # fmt: skip
_JUNK = st.binary(min_size=1, max_size=40).filter(lambda b: b"\n" not in b and b.strip() != b"")


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(_OPS, _JUNK), max_size=30), st.binary(max_size=20))
def test_read_ops_replays_every_readable_line_whatever_the_damage(
    tmp_path_factory: pytest.TempPathFactory, items: list[journal.Op | bytes], tail: bytes
) -> None:
    lines = [item.encode() if isinstance(item, journal.Op) else item + b"\n" for item in items]
    parsed = [journal.parse_line(line[:-1]) for line in lines]
    expected = [(op.kind, op.data) for op in parsed if op is not None]
    damage = [line for line, op in zip(lines, parsed, strict=True) if op is None]
    path = tmp_path_factory.mktemp("journal") / "journal.jsonl"
    path.write_bytes(b"".join(lines) + tail.replace(b"\n", b""))

    read = journal.read_ops(path)
    assert [(op.kind, op.data) for op in read.ops] == expected
    assert len(read.damaged) == len(damage)
    kept, bad, count = journal.split_damaged(path.read_bytes())
    assert count == len(damage) and bad == b"".join(damage)
    path.write_bytes(kept)
    again = journal.read_ops(path)
    assert again.damaged == [] and [(op.kind, op.data) for op in again.ops] == expected
