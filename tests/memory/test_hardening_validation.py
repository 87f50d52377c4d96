"""What comes in is validated; what is refused leaves the memory as it was (issue 14).

Items 3 (export onto the memory), 9 (poisoned import), 10 (--project, export
folders), 11 (restore --from, non-memory files), 12 (bounded history), 13
(doctor names files, newer formats, strict dates, NFC keys) and 14 (limit 0,
unknown category, self-supersede, a TOON file that is not a memory).
"""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path
from typing import Any

import pytest
from tests.clirunner import invoke
from tests.conftest import run_cli

from toon_memory import Memory
from toon_memory.errors import InputError, NewerFormatError
from toon_memory.store.paths import MemoryPaths


def _seed(project: Path) -> MemoryPaths:
    memory = Memory(project)
    memory.remember("decision", "use-zod", "Validate API input with zod schemas")
    memory.remember("warning", "no-eval", "Never call eval on user input")
    memory.compact()
    return MemoryPaths.for_project(project)


def _refused(done: Any, code: int, *needles: str) -> None:
    assert getattr(done, "exception", None) is None
    assert done.returncode == code, done.stderr
    assert "Traceback" not in done.stderr
    for needle in needles:
        assert needle in done.stderr, done.stderr


# -- item 3 -----------------------------------------------------------------------------


def test_export_to_a_name_with_a_nul_is_refused(project: Path, tmp_path: Path) -> None:
    memory = Memory(project)
    memory.remember("decision", "use-zod", "Validate input with zod.")
    for name in ("\x00", str(tmp_path / "a\x00b.json")):
        with pytest.raises(InputError) as caught:
            memory.export(name)
        assert caught.value.field == "file" and "NUL" in str(caught.value)


def test_export_onto_the_memory_folder_is_refused(project: Path) -> None:
    paths = _seed(project)
    before = paths.data.read_bytes()
    for target in (paths.data, paths.folder / "new.json", paths.backups / "x.json", paths.journal):
        paths.backups.mkdir(exist_ok=True)
        done = invoke("export", str(target), project=project)
        _refused(done, 2, "file: ", "inside a memory folder")
    assert paths.data.read_bytes() == before
    assert not (paths.folder / "new.json").exists()
    assert Memory(project).stats().active == 2


# -- item 9 -----------------------------------------------------------------------------


def test_poisoned_import_is_repaired_and_the_key_stays_usable(
    project: Path, tmp_path: Path
) -> None:
    rows = [{"key": "k", "content": "c", "importance": "extreme", "origin": "robot",
             "status": "zombie", "priority": 99, "confidence": 7, "quality": -1,
             "accessed": -3, "evidence": "proof", "date": "yesterday", "ttl": "soon",
             "created": "x"},
            {"key": "two words", "content": "spaces in the key"},
            {"key": "sur", "content": "lone \ud800 surrogate"}]  # fmt: skip
    path = tmp_path / "poison.json"
    path.write_text(json.dumps(rows))
    report = Memory(project).import_(path)
    assert report.added == 3 and report.repaired == 3
    text = "\n".join(report.messages)
    for word in ("importance 'extreme' unknown", "origin 'robot'", "status 'zombie'",
                 "priority 99", "confidence 7", "quality -1", "accessed -3", "evidence 'proof'",
                 "date 'yesterday'", "ttl 'soon'", "created 'x'", "stored as 'two-words'",
                 "invalid Unicode"):  # fmt: skip
        assert word in text, word
    memory = Memory(project)
    entry = memory.get("k")
    assert (entry.importance, entry.origin, entry.status, entry.priority) == (
        "",
        "import",
        "active",
        0,
    )
    memory.remember("knowledge", "k", "a new version", importance="high")  # no KeyError
    assert memory.get("k").importance == "high"
    assert memory.get("sur").content == "lone \ufffd surrogate"
    assert memory.get("two-words").content == "spaces in the key"


def test_a_stored_unknown_importance_does_not_break_remember(project: Path) -> None:
    paths = _seed(project)
    text = paths.data.read_text()
    row = next(line for line in text.splitlines() if "use-zod" in line)
    cells = row.split("|")
    cells[18] = "extreme"  # the importance column of data.toon
    paths.data.write_text(text.replace(row, "|".join(cells)))
    Memory(project).remember("decision", "use-zod", "Validate with zod, always", importance="low")


# -- item 10 ----------------------------------------------------------------------------


def test_project_must_name_an_existing_folder(tmp_path: Path) -> None:
    missing = tmp_path / "typo" / "project"
    done = invoke("--project", str(missing), "remember", "-c", "bug", "-k", "k", "-m", "m")
    _refused(done, 2, "--project", "does not exist")
    env_done = invoke("stats", env={"TOON_MEMORY_PROJECT": str(missing)})
    _refused(env_done, 2, "does not exist")
    a_file = tmp_path / "file.txt"
    a_file.write_text("x")
    _refused(invoke("--project", str(a_file), "stats"), 2, "--project")
    assert not (tmp_path / "typo").exists()
    sub = run_cli("stats", env={"TOON_MEMORY_PROJECT": str(missing)})
    assert sub.returncode == 2 and "Traceback" not in sub.stderr
    assert not (tmp_path / "typo").exists()


def test_export_does_not_create_missing_folders(project: Path, tmp_path: Path) -> None:
    _seed(project)
    target = tmp_path / "no" / "such" / "folder" / "out.json"
    _refused(invoke("export", str(target), project=project), 2, "file: ", "does not exist")
    assert not (tmp_path / "no").exists()


# -- item 11 ----------------------------------------------------------------------------


def test_restore_from_names_the_file_and_refuses_non_backups(project: Path, tmp_path: Path) -> None:
    paths = _seed(project)
    before = paths.data.read_bytes()
    missing = tmp_path / "missing.toon"
    _refused(invoke("restore", "--from", str(missing), project=project), 2, str(missing),
             "does not exist")  # fmt: skip
    empty = tmp_path / "empty.toon"
    empty.write_text("")
    _refused(invoke("restore", "--from", str(empty), project=project), 2, str(empty), "empty")
    other = tmp_path / "notes.toon"
    other.write_text("title: my notes\nitems[2]: a,b\n")
    _refused(invoke("restore", "--from", str(other), project=project), 2, str(other),
             "not a toon-memory file")  # fmt: skip
    assert paths.data.read_bytes() == before
    assert not list(paths.folder.glob("data.toon.broken-*"))
    good = Memory(project).backup()
    done = invoke("restore", "--from", str(good), project=project)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize(
    ("name", "text"),
    [("answer.json", "42"), ("answer.txt", "42"), ("list.json", "[1, 2, 3]"),
     ("notes.toon", "title: my notes\nitems[2]: a,b\n"), ("blank.json", "  \n")],
)  # fmt: skip
def test_import_of_a_non_memory_file_is_exit_2_without_restore_advice(
    project: Path, tmp_path: Path, name: str, text: str
) -> None:
    path = tmp_path / name
    path.write_text(text)
    done = invoke("import", str(path), project=project)
    _refused(done, 2, "file: ", str(path))
    assert "restore" not in done.stderr
    assert not MemoryPaths.for_project(project).data.exists()


def test_broken_config_does_not_suggest_restore(project: Path) -> None:
    paths = _seed(project)
    paths.config.write_text("{ not json")
    done = invoke("remember", "-c", "bug", "-k", "k", "-m", "m", project=project)
    _refused(done, 1, str(paths.config), "invalid JSON")
    assert "restore" not in done.stderr


# -- item 12 ----------------------------------------------------------------------------


def test_history_keeps_the_newest_versions_per_key(project: Path) -> None:
    memory = Memory(project)
    for n in range(26):
        memory.remember("knowledge", "busy", f"version {n} of the busy key")
    versions = memory.history("busy")
    assert len(versions) == 21  # the active one and the newest 20 superseded
    assert versions[0].content == "version 25 of the busy key"
    kept = {e.content for e in versions}
    assert "version 5 of the busy key" in kept and "version 4 of the busy key" not in kept
    other = Memory(project)  # the index survives a reload from data.toon and the cache
    other.remember("knowledge", "busy", "version 26 of the busy key")
    assert len(other.history("busy")) == 21


def test_history_horizon_comes_from_config(project: Path) -> None:
    path = MemoryPaths.for_project(project).config
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"historyVersions": 3}))
    memory = Memory(project)
    for n in range(10):
        memory.remember("knowledge", "k", f"content number {n}")
    versions = memory.history("k")
    assert versions[0].content == "content number 9"
    assert {e.content for e in versions} == {f"content number {n}" for n in (9, 8, 7, 6)}


def test_import_keeps_the_history_horizon_too(project: Path) -> None:
    rows = [{"key": "busy", "content": f"version {n}", "date": f"2026-01-{n + 1:02d}"}
            for n in range(30)]  # fmt: skip
    report = Memory(project).import_rows(rows)
    assert report.added == 21
    assert any("9 oldest version(s) past the history horizon of 20" in m for m in report.messages)
    versions = Memory(project).history("busy")
    assert len(versions) == 21 and versions[0].content == "version 29"
    assert "version 8" not in {e.content for e in versions}


# -- item 13 ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["data.toon", "archive.toon"])
def test_doctor_names_a_non_utf8_file(project: Path, name: str) -> None:
    paths = _seed(project)
    (paths.folder / name).write_bytes(b"version: 1\n\xff\xfe broken\n")
    done = invoke("doctor", project=project)
    assert done.returncode == 1 and done.exception is None
    assert f"{paths.folder / name}:2: not UTF-8 text" in done.stdout


def test_a_newer_format_is_refused_and_left_untouched(project: Path) -> None:
    paths = _seed(project)
    newer = paths.data.read_text().replace("version: 1", "version: 99", 1)
    paths.data.write_text(newer)
    with pytest.raises(NewerFormatError, match="version 99 is newer"):
        Memory(project).entries()
    done = invoke("remember", "-c", "bug", "-k", "k", "-m", "m", project=project)
    _refused(done, 1, "upgrade toon-memory")
    assert "restore" not in done.stderr
    assert paths.data.read_text() == newer


@pytest.mark.parametrize("value", ["20260101", "2026-W01", "2026-01-01T10:00", "2026-1-1", "soon"])
def test_as_of_accepts_only_what_help_documents(project: Path, value: str) -> None:
    _seed(project)
    _refused(invoke("recall", "zod", "--as-of", value, project=project), 2, "as_of: ", "YYYY-MM-DD")
    for option in ("--from-date", "--to-date"):
        _refused(invoke("search", "zod", option, value, project=project), 2, "YYYY-MM-DD")
    assert invoke("recall", "zod", "--as-of", "2026-01-01", project=project).returncode == 0


def test_keys_are_normalised_to_nfc(project: Path) -> None:
    memory = Memory(project)
    nfc, nfd = unicodedata.normalize("NFC", "café"), unicodedata.normalize("NFD", "café")
    assert nfc != nfd
    memory.remember("knowledge", nfc, "first")
    result = memory.remember("knowledge", nfd, "second")
    assert result.merged and len([e for e in memory.entries() if e.active]) == 1
    assert memory.get(nfd).key == nfc and memory.history(nfd)[0].content == "second"
    memory.pin(nfd)
    assert memory.get(nfc).priority == 1


# -- item 14 ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("recall", "zod", "--limit", "0"), "limit: "),
        (("search", "zod", "--limit", "0"), "limit: "),
        (("suggest", "zod", "--limit", "0"), "limit: "),
        (("primer", "--limit", "0"), "limit: "),
        (("recall", "zod", "--limit", "-3"), "limit: "),
        (("search", "zod", "--category", "idea"), "category: "),
        (("forget", "use-zod", "--action", "supersede", "--new-key", "use-zod"), "new_key: "),
    ],
)
def test_invalid_values_are_exit_2_naming_the_field(
    project: Path, args: tuple[str, ...], needle: str
) -> None:
    paths = _seed(project)
    before = paths.data.read_bytes()
    _refused(invoke(*args, project=project), 2, needle)
    assert paths.data.read_bytes() == before


def test_api_refuses_limit_zero_and_self_supersede(project: Path) -> None:
    _seed(project)
    memory = Memory(project)
    for call in (lambda: memory.recall("zod", limit=0), lambda: memory.suggest("zod", limit=0)):
        with pytest.raises(InputError, match="limit"):
            call()
    entry = memory.get("use-zod")
    with pytest.raises(InputError, match="new_key"):
        memory.forget(entry.id, "supersede", "use-zod")
    assert memory.get("use-zod").active
