"""The ``memory-*`` commands, each run as a real subprocess on a temp workspace."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from tests.adapters.slm.conftest import Runner


def store(slm: Runner, type_: str, content: str, importance: str = "0.5", *extra: str) -> None:
    slm("memory-store", "--type", type_, "--content", content, "--importance", importance, *extra)


def listed(slm: Runner, *args: str) -> list[dict[str, object]]:
    data = json.loads(slm("memory-list", "--json", *args).stdout)
    return list(data["memories"])


def test_init_creates_the_three_tiers_and_is_idempotent(slm: Runner, workspace: Path) -> None:
    done = slm("memory-init")
    assert "created SESSION-STATE.json, MEMORY.md, memories/" in done.stdout
    state = json.loads((workspace / "SESSION-STATE.json").read_text())
    assert state["current_task"] == "" and state["key_context"] == []
    assert (workspace / "MEMORY.md").read_text().startswith("# MEMORY")
    assert (workspace / "memories").is_dir()
    again = slm("memory-init")
    assert "nothing new" in again.stdout
    assert json.loads((workspace / "SESSION-STATE.json").read_text())["key_context"] == []


def test_store_is_durable_and_writes_the_daily_file(
    slm: Runner, toon: Runner, workspace: Path
) -> None:
    slm("memory-init")
    done = slm("memory-store", "--type", "preference", "--content", "User prefers dark mode",
               "--importance", "0.9", "--tags", "ui,preferences", "--context", "UI setup",
               "--json")  # fmt: skip
    stored = json.loads(done.stdout)
    assert stored["type"] == "preference" and stored["importance"] == 0.9
    # a separate process (the agent's next command) sees it
    entry = json.loads(toon("get", stored["key"], "--json").stdout)["entries"][0]
    assert entry["category"] == "pattern"
    assert "preference" in entry["tags"] and "ui" in entry["tags"]
    slm_meta = entry["meta"]["slm"]
    assert slm_meta["type"] == "preference" and slm_meta["importance"] == 0.9
    assert slm_meta["record"]["context"] == "UI setup"
    day = json.loads((workspace / "memories" / "2026-07-15.json").read_text())
    assert day["date"] == "2026-07-15"
    (record,) = day["memories"]
    assert record["content"] == "User prefers dark mode"
    assert record["tags"] == ["ui", "preferences"] and record["context"] == "UI setup"
    assert record["timestamp"].startswith("2026-07-15T") and len(record["id"]) == 36


@pytest.mark.parametrize(
    ("args", "field"),
    [
        (["--type", "opinion", "--content", "x", "--importance", "0.5"], "type"),
        (["--type", "fact", "--content", "x", "--importance", "1.5"], "importance"),
        (["--type", "fact", "--content", "x", "--importance", "-0.1"], "importance"),
        (["--type", "fact", "--content", "x", "--importance", "high"], "importance"),
        (["--type", "fact", "--content", "  ", "--importance", "0.5"], "content"),
        (["--type", "fact", "--importance", "0.5"], "--content"),
    ],
)
def test_bad_input_exits_2_and_writes_nothing(
    slm: Runner, workspace: Path, args: list[str], field: str
) -> None:
    slm("memory-init")
    before = sorted(p.relative_to(workspace) for p in workspace.rglob("*") if p.is_file())
    done = slm("memory-store", *args, check=False)
    assert done.returncode == 2
    assert field in done.stderr
    after = sorted(p.relative_to(workspace) for p in workspace.rglob("*") if p.is_file())
    assert after == before
    assert listed(slm) == []


def test_search_ranks_by_relevance_importance_and_recency(slm: Runner) -> None:
    store(slm, "fact", "The CSS build uses PostCSS", "0.2")
    store(slm, "preference", "User prefers Tailwind CSS over plain CSS", "0.95")
    store(slm, "fact", "The database is Postgres 16", "1.0")
    data = json.loads(slm("memory-search", "CSS", "--json").stdout)
    contents = [r["content"] for r in data["results"]]
    assert contents[0] == "User prefers Tailwind CSS over plain CSS"
    assert "The database is Postgres 16" not in contents  # only matches are returned
    top = data["results"][0]
    assert top["totalScore"] == pytest.approx(
        top["relevance"] + top["importanceBoost"] + top["recencyBoost"], abs=1e-3
    )
    assert top["recencyBoost"] == pytest.approx(0.5)  # stored today


def test_search_recency_boost_prefers_recent(slm: Runner, tmp_path: Path) -> None:
    backup = {"memories": [
        {"id": "a", "type": "fact", "content": "deploy target is fly.io", "importance": 0.5,
         "tags": [], "timestamp": "2025-07-15T10:00:00Z", "date": "2025-07-15"},
        {"id": "b", "type": "fact", "content": "deploy target is render.com", "importance": 0.5,
         "tags": [], "timestamp": "2026-07-14T10:00:00Z", "date": "2026-07-14"},
    ]}  # fmt: skip
    path = tmp_path / "backup.json"
    path.write_text(json.dumps(backup), encoding="utf-8")
    slm("memory-import", "--file", str(path))
    found = json.loads(slm("memory-search", "deploy", "target", "--json").stdout)["results"]
    assert [r["content"] for r in found] == [
        "deploy target is render.com",
        "deploy target is fly.io",
    ]
    assert found[0]["recencyBoost"] > found[1]["recencyBoost"]


def test_list_filters_by_type_date_and_limit(slm: Runner, tmp_path: Path) -> None:
    for n in range(12):
        store(slm, "fact" if n % 2 else "lesson", f"memory number {n}")
    assert len(listed(slm)) == 10
    assert len(listed(slm, "--limit", "3")) == 3
    assert len(listed(slm, "--limit", "0")) == 12
    lessons = listed(slm, "--type", "lesson", "--limit", "0")
    assert len(lessons) == 6 and {m["type"] for m in lessons} == {"lesson"}
    assert len(listed(slm, "--date", "today")) == 12
    assert listed(slm, "--date", "2026-01-01") == []
    bad = slm("memory-list", "--type", "nope", check=False)
    assert bad.returncode == 2 and "type" in bad.stderr
    assert slm("memory-list", "--date", "someday", check=False).returncode == 2


def test_stats_counts_types(slm: Runner) -> None:
    slm("memory-init")
    store(slm, "decision", "Use React", "0.9")
    store(slm, "preference", "Dark mode", "0.7")
    data = json.loads(slm("memory-stats", "--json").stdout)
    assert data["total"] == 2 and data["today"] == 2
    assert data["by_type"]["decision"] == 1 and data["by_type"]["preference"] == 1
    assert data["average_importance"] == 0.8
    assert data["daily_files"] == 1
    assert "2 memories" in slm("memory-stats").stdout


def test_export_json_then_import_elsewhere(slm: Runner, tmp_path: Path) -> None:
    store(slm, "decision", "Use Tailwind, not plain CSS", "0.9", "--context", "kickoff")
    store(slm, "preference", "用户偏好Tailwind而非原生CSS", "0.95", "--tags", "css")
    backup = tmp_path / "backup.json"
    slm("memory-export", "--format", "json", "--output", str(backup))
    data = json.loads(backup.read_text())
    assert data["format"] == "simple-local-memory" and len(data["memories"]) == 2
    other = tmp_path / "other"
    (other / ".git").mkdir(parents=True)
    env_run = [sys.executable, "-m", "toon_memory.adapters.cli.slm_commands"]
    done = subprocess.run([*env_run, "memory-import", "--file", str(backup), "-w", str(other)],
                          capture_output=True, text=True, check=True)  # fmt: skip
    assert "Imported 2" in done.stdout
    again = subprocess.run([*env_run, "memory-list", "--json", "-w", str(other)],
                           capture_output=True, text=True, check=True)  # fmt: skip
    mine = {(m["type"], m["content"], m["importance"], m["id"]) for m in listed(slm)}
    theirs = {(m["type"], m["content"], m["importance"], m["id"])
              for m in json.loads(again.stdout)["memories"]}  # fmt: skip
    assert mine == theirs
    assert "Imported 0" in slm("memory-import", "--file", str(backup)).stdout


def test_deduplicate_keeps_the_most_important(slm: Runner, toon: Runner) -> None:
    slm("memory-init")
    store(slm, "fact", "Staging is blue-falcon", "0.4")
    store(slm, "fact", "staging is  blue-falcon", "0.8")
    store(slm, "lesson", "Staging is blue-falcon", "0.3")  # other type: kept
    data = json.loads(slm("memory-deduplicate", "--json").stdout)
    assert len(data["removed"]) == 1
    left = listed(slm)
    assert sorted((m["type"], m["importance"]) for m in left) == [("fact", 0.8), ("lesson", 0.3)]
    removed = json.loads(toon("get", data["removed"][0]["key"], "--json").stdout)["entries"][0]
    assert removed["status"] == "superseded"  # kept as history, not lost
    assert json.loads(slm("memory-deduplicate", "--json").stdout)["removed"] == []


def test_archive_moves_old_memories(slm: Runner, tmp_path: Path) -> None:
    backup = {"memories": [
        {"id": "old", "type": "fact", "content": "old fact about ponies", "importance": 0.5,
         "timestamp": "2026-06-01T10:00:00Z", "date": "2026-06-01"},
    ]}  # fmt: skip
    (tmp_path / "b.json").write_text(json.dumps(backup), encoding="utf-8")
    slm("memory-import", "--file", str(tmp_path / "b.json"))
    store(slm, "fact", "fresh fact about ponies")
    done = json.loads(slm("memory-archive", "--days", "7", "--json").stdout)
    assert [m["content"] for m in done["archived"]] == ["old fact about ponies"]
    assert [m["content"] for m in listed(slm)] == ["fresh fact about ponies"]
    assert json.loads(slm("memory-stats", "--json").stdout)["archived"] == 1
    assert slm("memory-archive", "--days", "0", check=False).returncode == 2


def test_cleanup_removes_old_daily_files_only(slm: Runner, workspace: Path, tmp_path: Path) -> None:
    from tests.adapters.slm.conftest import build_slm_workspace

    build_slm_workspace(workspace)
    slm("memory-init")
    done = json.loads(slm("memory-cleanup", "--days", "30", "--json").stdout)
    assert done["removed"] == ["2026-03-15.json"]
    names = sorted(p.name for p in (workspace / "memories").iterdir())
    assert "2026-07-14.json" in names and "preferences.json" in names
    hits = json.loads(slm("memory-search", "blue-falcon", "--json").stdout)["results"]
    assert hits and hits[0]["content"] == "The staging server is called blue-falcon"


def test_installed_script_runs(workspace: Path) -> None:
    script = Path(sys.executable).parent / "memory-stats"
    if not script.exists():
        pytest.skip("console scripts not installed")
    done = subprocess.run([str(script), "--json", "-w", str(workspace)],
                          capture_output=True, text=True, check=True)  # fmt: skip
    assert json.loads(done.stdout)["total"] == 0


def test_store_survives_a_broken_daily_file(slm: Runner, workspace: Path) -> None:
    slm("memory-init")
    (workspace / "memories" / "2026-07-15.json").write_text("{broken", encoding="utf-8")
    done = slm("memory-store", "--type", "fact", "--content", "kept anyway", "--importance", "0.5")
    assert "warning" in done.stderr and "2026-07-15.json" in done.stderr
    assert [m["content"] for m in listed(slm)] == ["kept anyway"]
    assert (workspace / "memories" / "2026-07-15.json").read_text(encoding="utf-8") == "{broken"
