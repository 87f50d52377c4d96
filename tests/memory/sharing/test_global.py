"""Project memory to and from the global store (``TOON_MEMORY_HOME``): merged with the
remember rules, deterministic, offline; ``merge=False`` replaces after a backup."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.conftest import run_cli

from toon_memory import InputError, Memory
from toon_memory.store.codec import decode_document


def global_memory() -> Memory:
    return Memory(global_store=True)


def seeded(project: Path) -> Memory:
    memory = Memory(project)
    memory.remember("decision", "use-zod", "Validate payloads with Zod", tags="validation")
    memory.remember("warning", "no-sudo-npm", "Never run npm with sudo")
    memory.remember("knowledge", "use-zod", "Validate every payload with Zod schemas")  # history
    memory.summary("src/a.ts", "Entry point")
    return memory


def test_export_merges_into_global_and_a_second_export_changes_nothing(project: Path) -> None:
    memory = seeded(project)
    first = memory.sharing.export_global()
    assert (first.added, first.history, first.updated) == (2, 0, 0)  # active only, no history
    glob = global_memory()
    assert {e.key for e in glob.entries()} == {"use-zod", "no-sudo-npm"}
    assert glob.get("use-zod").content == "Validate every payload with Zod schemas"
    assert len(glob.history("use-zod")) == 1  # this project's history stays here
    assert glob.summary("src/a.ts") is None  # file summaries belong to their project
    data = glob.paths.data.read_bytes()
    second = memory.sharing.export_global()
    assert not second.changed and second.unchanged == 2
    assert global_memory().paths.data.read_bytes() == data
    assert memory.stats().active == 2  # the source is untouched


def test_export_is_deterministic(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                 project: Path) -> None:  # fmt: skip
    seeded(project)
    outputs = []
    for name in ("home-1", "home-2"):
        (tmp_path / name).mkdir()
        monkeypatch.setenv("TOON_MEMORY_HOME", str(tmp_path / name))
        Memory(project).sharing.export_global()
        outputs.append((tmp_path / name / ".toon-memory/memory/global.toon").read_bytes())
    assert outputs[0] == outputs[1]


def test_same_key_on_both_sides_merges_with_the_remember_rules(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TOON_MEMORY_TODAY", "2026-07-01")
    global_memory().remember("decision", "use-zod", "Use io-ts", tags="types", confidence=0.9)
    monkeypatch.setenv("TOON_MEMORY_TODAY", "2026-07-15")
    memory = seeded(project)  # written later: newer
    report = memory.sharing.export_global()
    assert report.updated == 1 and report.added == 2  # the older global version: now history
    entry = global_memory().get("use-zod")
    assert entry.content == "Validate every payload with Zod schemas"
    assert {"types", "validation"} <= set(entry.tags) and entry.confidence == 1.0
    contents = {e.content for e in global_memory().history("use-zod")}
    assert "Use io-ts" in contents


def test_import_merges_the_global_memory_in(project: Path) -> None:
    glob = global_memory()
    glob.remember("pattern", "commit-style", "Conventional commits everywhere")
    memory = seeded(project)
    report = memory.sharing.import_global()
    assert report.added == 1 and report.mode == "merge"
    assert memory.get("commit-style").content == "Conventional commits everywhere"
    assert not memory.sharing.import_global().changed
    assert memory.summary("src/a.ts") is not None


def test_replace_keeps_a_backup_of_what_it_replaces(project: Path) -> None:
    global_memory().remember("pattern", "commit-style", "Conventional commits everywhere")
    memory = seeded(project)
    report = memory.sharing.import_global(merge=False)
    assert report.mode == "replace" and report.removed == 3 and report.added == 1
    assert [e.key for e in memory.entries(include_inactive=True)] == ["commit-style"]
    assert report.backup is not None
    kept = decode_document(report.backup.read_text(encoding="utf-8"), report.backup)
    assert {e.key for e in kept.entries} == {"use-zod", "no-sudo-npm"}
    assert memory.summary("src/a.ts") is not None  # file summaries stay the project's


def test_replace_with_an_empty_global_memory_is_refused(project: Path) -> None:
    memory = seeded(project)
    before = memory.paths.data.read_bytes()
    with pytest.raises(InputError) as caught:
        memory.sharing.import_global(merge=False)
    assert caught.value.field == "merge" and "empty" in str(caught.value)
    assert memory.paths.data.read_bytes() == before
    assert not memory.backups()
    with pytest.raises(InputError):
        memory.sharing.import_global(merge="no")  # type: ignore[arg-type]


def test_cli_global_export_and_import(project: Path) -> None:
    seeded(project)
    out = run_cli("global", "export", "--json", project=project, check=True)
    assert json.loads(out.stdout)["added"] == 2
    text = run_cli("global", "export", project=project, check=True).stdout
    assert "exported to the global memory" in text and "2 unchanged" in text
    other = project.parent / "other"
    (other / ".git").mkdir(parents=True)
    merged = json.loads(run_cli("global", "import", "--json", project=other, check=True).stdout)
    assert merged["added"] == 2 and merged["mode"] == "merge"
    Memory(other).remember("bug", "local-only", "Only here")
    replaced = run_cli("global", "import", "--replace", project=other, check=True).stdout
    assert "replaced this project's entries" in replaced and "restore --from" in replaced
    assert "local-only" not in {e.key for e in Memory(other).entries()}


def test_the_global_memory_is_the_seeds_global_toon(project: Path) -> None:
    seeded(project).sharing.export_global()
    folder = Path(global_memory().paths.folder)
    assert sorted(p.name for p in folder.glob("*.toon")) == ["global.toon"]
    data = folder / "global.toon"
    keys = {e.key for e in decode_document(data.read_text(), data).entries}
    assert keys >= {"use-zod", "no-sudo-npm"}
    assert not (folder / "journal.jsonl").exists() and not (folder / "data.toon").exists()


def test_a_legacy_global_data_toon_is_read_and_kept_where_it_is(
    project: Path, tmp_path: Path
) -> None:
    legacy = tmp_path / "home" / ".toon-memory" / "memory"
    legacy.mkdir(parents=True)
    elsewhere = tmp_path / "other"
    (elsewhere / ".git").mkdir(parents=True)
    old = Memory(elsewhere)
    old.remember("knowledge", "legacy-note", "Written by an older toon-memory")
    old.compact()
    (legacy / "data.toon").write_bytes(old.paths.data.read_bytes())
    report = Memory(project).sharing.import_global()
    assert report.added == 1 and Memory(project).get("legacy-note") is not None
    seeded(project).sharing.export_global()
    assert not (legacy / "global.toon").exists()  # still the legacy file, now with both
    assert {"legacy-note", "use-zod"} <= {e.key for e in global_memory().entries()}
