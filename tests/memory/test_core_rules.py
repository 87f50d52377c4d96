"""Rules that moved into the core: checkpoint, init, session state, primer, links,
config settings and import counting, each through ``Memory`` and the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.conftest import STORES, open_memory, run_cli

from toon_memory import CorruptFileError, InputError, Memory


@pytest.fixture(params=STORES)
def memory(request: pytest.FixtureRequest, project: Path) -> Memory:
    return open_memory(request, project)


def test_checkpoint_backs_up_and_names_the_backup(memory: Memory) -> None:
    memory.remember("decision", "use-zod", "Use Zod for API validation")
    done = memory.checkpoint("before the refactor")
    assert done.backup.exists() and done.backup.parent == memory.paths.backups
    entry = done.remembered.entry
    assert entry.key.startswith("checkpoint-") and entry.category == "knowledge"
    assert done.backup.name in entry.content and "before the refactor" in entry.content
    assert entry.ttl and "checkpoint" in entry.tags


def test_checkpoint_from_the_cli_matches_the_api(project: Path) -> None:
    run_cli("remember", "-c", "bug", "-k", "b1", "-m", "Redis timeout", project=project, check=True)
    data = json.loads(
        run_cli("checkpoint", "--note", "n1", "--json", project=project, check=True).stdout
    )
    assert Path(data["backup"]).exists()
    assert data["entry"]["key"].startswith("checkpoint-") and "n1" in data["entry"]["content"]


def test_init_creates_the_folder_and_reads_the_vocabulary(project: Path) -> None:
    (project / "requirements.txt").write_text("redis==5.0\nfastapi\n")
    result = Memory(project).init()
    assert result.folder.is_dir()
    assert "redis" in result.vocab
    saved = json.loads((result.folder / "config.json").read_text())
    assert "redis" in saved["vocab"]


@pytest.mark.parametrize(
    ("action", "field", "value", "problem"),
    [("set", None, "x", "field"), ("add", "key_context", None, "value"),
     ("jump", None, None, "action"), ("add", "current_task", "x", "field")],
)  # fmt: skip
def test_session_state_rejects_bad_calls_and_writes_nothing(
    memory: Memory, action: str, field: str | None, value: str | None, problem: str
) -> None:
    with pytest.raises(InputError) as info:
        memory.session_state(action, field, value)
    assert info.value.field == problem
    assert not (memory.root / "SESSION-STATE.json").exists()


def test_session_state_cli_and_api_share_one_rule(memory: Memory, project: Path) -> None:
    memory.session_state("set", "current_task", ["ship", "it"])
    run_cli("state", "add", "key_context", "uses uv", "no docker", project=project, check=True)
    shown = memory.session_state()
    assert shown["current_task"] == "ship it"
    assert shown["key_context"] == ["uses uv", "no docker"]
    run_cli("state", "clear", "key_context", project=project, check=True)
    assert memory.session_state()["key_context"] == [] and memory.session_state()["current_task"]


def test_unknown_link_type_is_refused(memory: Memory) -> None:
    with pytest.raises(InputError) as info:
        memory.remember("decision", "a", "text", links="bogus:target")
    assert info.value.field == "links" and "bogus" in info.value.problem
    memory.remember("decision", "b", "text", links="supersedes:a relates:redis:pool")
    assert memory.get("b").links == ["supersedes:a", "relates:redis:pool"]


def test_a_bad_number_in_config_names_the_file_and_key(memory: Memory, project: Path) -> None:
    memory.paths.folder.mkdir(parents=True)
    memory.paths.config.write_text(json.dumps({"autoArchive": {"afterDays": "soon"}}))
    with pytest.raises(CorruptFileError) as info:
        memory.remember("bug", "k", "content")
    assert "autoArchive.afterDays" in str(info.value) and "config.json" in str(info.value)
    done = run_cli("remember", "-c", "bug", "-k", "k", "-m", "x", project=project)
    assert done.returncode == 1
    assert "autoArchive.afterDays" in done.stderr and "Traceback" not in done.stderr


def test_reader_notes_count_once_each(memory: Memory) -> None:
    notes = [
        "line 3 (k1): 2 following line(s) did not fit the row; see skipped",
        "line 9 (k2): repaired an escaped pipe",
        "skipped line 4: garbage",
        "entry 7: not an object, skipped",
    ]
    report = memory.import_rows([{"key": "k1", "content": "c", "category": "bug"}], notes=notes)
    assert (report.added, report.repaired, report.skipped) == (1, 2, 2)


def test_primer_ranks_through_the_engine(memory: Memory, project: Path) -> None:
    memory.remember("decision", "db", "Postgres is the database", importance="critical")
    memory.remember("pattern", "p1", "Services return Result objects")
    memory.remember("knowledge", "minor", "A small note", importance="low")
    memory.pin("minor")
    primer = memory.primer()
    assert primer.top[0].key == "minor"  # pinned leads, as in recall
    assert [e.key for e in primer.top][1] == "db"
    assert primer.counts == {"decision": 1, "pattern": 1, "knowledge": 1}
    out = run_cli("primer", "--json", project=project, check=True)
    assert [t["key"] for t in json.loads(out.stdout)["top"]][:2] == ["minor", "db"]


def test_visualize_ranks_without_recording_access(memory: Memory) -> None:
    memory.remember("decision", "db", "Postgres is the database")
    memory.compact()
    before = memory.paths.access_log.exists() and memory.paths.access_log.read_bytes()
    found = memory.visualize("postgres database")
    assert [e.key for e in found.entries] == ["db"]
    assert (memory.paths.access_log.exists() and memory.paths.access_log.read_bytes()) == before
    assert memory.visualize("").entries == []
