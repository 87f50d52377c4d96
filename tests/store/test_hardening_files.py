"""A read-only memory can be read; OS errors are one line naming the path (issue 14, items 2, 7).

The read-only conditions are real: a read-only bind mount (EROFS), ``chattr +i``
(EPERM, binds root too) and ``chmod a-w`` (EACCES, binds only a normal user);
each variant skips with its reason where it cannot be made. The full disk is a
tiny tmpfs.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.conftest import run_cli
from tests.fsconditions import READ_ONLY_KINDS, fill, tiny_disk

from toon_memory import Memory
from toon_memory.errors import FileAccessError, ReadOnlyMemoryError
from toon_memory.store.paths import MemoryPaths


def _seed(project: Path) -> MemoryPaths:
    memory = Memory(project)
    memory.remember("decision", "use-zod", "Validate API input with zod schemas", tags="api")
    memory.remember("warning", "no-eval", "Never call eval on user input")
    memory.compact()
    return MemoryPaths.for_project(project)


def _no_traceback(done: object) -> None:
    stderr = getattr(done, "stderr", "")
    assert "Traceback" not in stderr and len(stderr.strip().splitlines()) == 1, stderr


@pytest.mark.parametrize("kind", sorted(READ_ONLY_KINDS))
def test_read_only_memory_reads_and_refuses_changes_clearly(project: Path, kind: str) -> None:
    paths = _seed(project)
    before = paths.data.read_bytes()
    with READ_ONLY_KINDS[kind](paths.folder):
        memory = Memory(project)
        assert [e.key for e in memory.recall("zod schemas").entries][:1] == ["use-zod"]
        assert memory.stats().active == 2
        assert not paths.access_log.exists()  # counting is best effort and silent
        with pytest.raises(ReadOnlyMemoryError, match="read-only"):
            memory.remember("knowledge", "new-key", "cannot be written")
        doctor = memory.doctor()
        assert ("warn", "the memory folder is read-only: reads work, changes are refused") in doctor
        assert not any(level == "error" for level, _ in doctor)

        recall = run_cli("recall", "eval", "--json", project=project)
        assert recall.returncode == 0 and recall.stderr == ""
        assert json.loads(recall.stdout)["results"][0]["key"] == "no-eval"
        remember = run_cli("remember", "-c", "bug", "-k", "x", "-m", "y", project=project)
        assert remember.returncode == 1 and "read-only" in remember.stderr
        _no_traceback(remember)
        assert str(paths.folder) in remember.stderr
    assert paths.data.read_bytes() == before


def test_read_only_memory_with_a_damaged_journal_is_read_in_place(project: Path) -> None:
    paths = _seed(project)
    good = b'{"op":"del","id":"00000000"}\n'
    paths.journal.write_bytes(good + b"garbage\n" + good)
    with READ_ONLY_KINDS["mount"](paths.folder):
        memory = Memory(project)
        assert memory.stats().active == 2
        (note,) = memory.notices()
        assert "left in place" in note and str(paths.journal) in note
    assert paths.journal.read_bytes() == good + b"garbage\n" + good
    writable = Memory(project)  # the cache knows the damage was read past: compaction keeps it
    writable.remember("knowledge", "after", "a write once the folder is writable again")
    writable.compact()
    (kept,) = paths.folder.glob("journal.broken-*")
    assert kept.read_bytes() == b"garbage\n"


def test_data_file_that_is_a_folder_is_one_line(project: Path) -> None:
    paths = _seed(project)
    paths.data.unlink()
    paths.data.mkdir()
    for args in (("recall", "zod"), ("remember", "-c", "bug", "-k", "k", "-m", "m"), ("stats",)):
        done = run_cli(*args, project=project)
        assert done.returncode == 1, done.stderr
        _no_traceback(done)
        assert f"{paths.data}: is a folder where a file is expected" in done.stderr
    doctor = run_cli("doctor", project=project)
    assert doctor.returncode == 1 and "Traceback" not in doctor.stderr
    assert str(paths.data) in doctor.stdout


def test_memory_folder_that_is_a_file_is_one_line(project: Path) -> None:
    folder = MemoryPaths.for_project(project).folder
    folder.parent.mkdir(parents=True)
    folder.write_text("not a folder")
    for args in (("recall", "zod"), ("remember", "-c", "bug", "-k", "k", "-m", "m")):
        done = run_cli(*args, project=project)
        assert done.returncode == 1, done.stderr
        _no_traceback(done)
        assert f"{folder}: is a file where a folder is expected" in done.stderr
    assert folder.read_text() == "not a folder"


def test_immutable_data_file_is_permission_advice(project: Path) -> None:
    paths = _seed(project)
    with READ_ONLY_KINDS["chattr"](paths.data):  # the folder stays writable, the file does not
        memory = Memory(project)
        memory.remember("knowledge", "journal-only", "the journal takes the write")
        with pytest.raises(FileAccessError, match="operation not permitted"):
            memory.compact()
        assert list(paths.folder.glob("*.tmp")) == []
    assert "journal-only" in {e.key for e in Memory(project).entries()}


def test_full_disk_refuses_the_write_and_keeps_everything(tmp_path: Path) -> None:
    with tiny_disk(tmp_path / "disk") as disk:
        project = disk / "project"
        (project / ".git").mkdir(parents=True)
        paths = _seed(project)
        before = paths.data.read_bytes()
        filler = fill(disk)
        done = run_cli("remember", "-c", "bug", "-k", "big", "-m", "x" * 4000, project=project)
        assert done.returncode == 1, done.stderr
        _no_traceback(done)
        assert "the disk is full" in done.stderr
        assert paths.data.read_bytes() == before
        filler.unlink()
        run_cli("remember", "-c", "bug", "-k", "big", "-m", "x" * 4000, project=project, check=True)
        assert {"use-zod", "no-eval", "big"} <= {e.key for e in Memory(project).entries()}
