"""A simple-local-memory workspace: imported whole, exported back unchanged in meaning."""

from __future__ import annotations

import json
from pathlib import Path

from tests.adapters.slm.conftest import MEMORY_MD, Runner, build_slm_workspace

from toon_memory.adapters.slm.workspace import split_markdown


def workspace_files(folder: Path) -> dict[str, object]:
    out: dict[str, object] = {}
    for path in sorted((folder / "memories").glob("*.json")):
        out[f"memories/{path.name}"] = json.loads(path.read_text(encoding="utf-8"))
    out["MEMORY.md"] = split_markdown((folder / "MEMORY.md").read_text(encoding="utf-8"))
    return out


def test_import_then_export_gives_back_the_same_workspace(slm: Runner, tmp_path: Path) -> None:
    source = build_slm_workspace(tmp_path / "slm-workspace")
    done = json.loads(slm("memory-import", "--file", str(source), "--json").stdout)
    assert done["added"] == 11 and done["skipped"] == 0, done
    out = tmp_path / "exported"
    slm("memory-export", "--format", "workspace", "--output", str(out))
    assert workspace_files(out) == workspace_files(source)
    assert (out / "MEMORY.md").read_text(encoding="utf-8") == MEMORY_MD
    again = json.loads(slm("memory-import", "--file", str(source), "--json").stdout)
    assert again["added"] == 0 and again["updated"] == 0


def test_imported_records_keep_their_fields_in_meta(
    slm: Runner, toon: Runner, tmp_path: Path
) -> None:
    source = build_slm_workspace(tmp_path / "slm-workspace")
    slm("memory-import", "--file", str(source))
    memories = {m["content"]: m for m in json.loads(slm("memory-list", "--json",
                                                       "--limit", "0").stdout)["memories"]}  # fmt: skip
    pref = next(m for c, m in memories.items() if c.startswith("css_framework"))
    entry = json.loads(toon("get", pref["key"], "--json").stdout)["entries"][0]
    record = entry["meta"]["slm"]["record"]
    assert record["value"] == "Tailwind" and record["reason"] == "用户偏好于原生CSS"
    assert entry["category"] == "pattern" and entry["date"] == "2026-03-15"
    dark = memories["用户偏好深色模式"]
    assert dark["context"] == "在UI设置期间讨论" and dark["timestamp"] == "2026-03-15T10:30:00Z"
    assert memories["The staging server is called blue-falcon"]["mood"] == "calm"
    decision = next(m for c, m in memories.items() if c.startswith("使用React"))
    assert decision["type"] == "decision"


def test_init_in_an_existing_workspace_imports_it(
    slm: Runner, workspace: Path, tmp_path: Path
) -> None:
    build_slm_workspace(workspace)
    original = workspace_files(workspace)
    state = (workspace / "SESSION-STATE.json").read_text(encoding="utf-8")
    done = json.loads(slm("memory-init", "--json").stdout)
    assert done["imported"]["added"] == 11 and done["created"] == []
    assert (workspace / "SESSION-STATE.json").read_text(encoding="utf-8") == state
    hits = json.loads(slm("memory-search", "migrations", "--json").stdout)["results"]
    assert hits[0]["content"] == "Always run the migrations before the deploy"
    # storing today writes today's file and leaves the others as they were
    slm("memory-store", "--type", "fact", "--content", "New fact", "--importance", "0.6")
    assert workspace_files(workspace) | {"memories/2026-07-15.json": None} == original | {
        "memories/2026-07-15.json": None
    }
    today = json.loads((workspace / "memories" / "2026-07-15.json").read_text(encoding="utf-8"))
    assert [m["content"] for m in today["memories"]] == ["New fact"]


def test_records_written_by_the_other_tool_are_taken_in(slm: Runner, workspace: Path) -> None:
    slm("memory-init")
    slm("memory-store", "--type", "fact", "--content", "first", "--importance", "0.5")
    day = workspace / "memories" / "2026-07-15.json"
    data = json.loads(day.read_text(encoding="utf-8"))
    data["memories"].append(
        {
            "id": "x-1",
            "type": "lesson",
            "content": "written by slm",
            "importance": 0.9,
            "tags": [],
            "timestamp": "2026-07-15T08:00:00Z",
        }
    )
    day.write_text(json.dumps(data), encoding="utf-8")
    slm("memory-store", "--type", "fact", "--content", "second", "--importance", "0.5")
    contents = {m["content"] for m in json.loads(day.read_text(encoding="utf-8"))["memories"]}
    assert contents == {"first", "second", "written by slm"}
    assert json.loads(slm("memory-stats", "--json").stdout)["total"] == 3


def test_edited_memory_md_section_updates_on_reimport(
    slm: Runner, workspace: Path, tmp_path: Path
) -> None:
    build_slm_workspace(workspace)
    slm("memory-init")
    md = workspace / "MEMORY.md"
    md.write_text(MEMORY_MD.replace("Dark mode is the default.", "Light mode now."), "utf-8")
    done = json.loads(slm("memory-import", "--file", ".", "--json").stdout)
    assert done["updated"] == 1 and done["added"] == 0
    out = tmp_path / "out"
    slm("memory-export", "--format", "workspace", "--output", str(out))
    assert "Light mode now." in (out / "MEMORY.md").read_text(encoding="utf-8")


def test_bad_records_are_reported_not_fatal(slm: Runner, tmp_path: Path) -> None:
    path = tmp_path / "2026-07-01.json"
    path.write_text(json.dumps({"date": "2026-07-01", "memories": [
        {"id": "1", "type": "gossip", "content": "x"},
        {"id": "2", "type": "fact", "content": ""},
        {"id": "3", "type": "fact", "content": "fine", "importance": 7},
        {"id": "4", "type": "fact", "content": "good one"},
    ]}), encoding="utf-8")  # fmt: skip
    done = json.loads(slm("memory-import", "--file", str(path), "--json").stdout)
    assert done["added"] == 1 and done["skipped"] == 3
    joined = "\n".join(done["messages"])
    assert "type" in joined and "content" in joined and "importance" in joined
    missing = slm("memory-import", "--file", str(tmp_path / "nope.json"), check=False)
    assert missing.returncode == 2 and "file" in missing.stderr


def test_native_entries_show_in_daily_files_without_duplicates(
    slm: Runner, toon: Runner, workspace: Path
) -> None:
    slm("memory-init")
    toon("remember", "-c", "warning", "-k", "no-force-push", "-m", "Never force-push main")
    slm("memory-store", "--type", "fact", "--content", "one", "--importance", "0.5")
    slm("memory-store", "--type", "fact", "--content", "two", "--importance", "0.5")
    day = json.loads((workspace / "memories" / "2026-07-15.json").read_text(encoding="utf-8"))
    native = [m for m in day["memories"] if m["content"] == "Never force-push main"]
    assert len(native) == 1 and native[0]["type"] == "lesson"
    assert json.loads(slm("memory-stats", "--json").stdout)["total"] == 3


def test_export_into_the_workspace_keeps_hand_edits(slm: Runner, workspace: Path) -> None:
    build_slm_workspace(workspace)
    slm("memory-init")
    md = workspace / "MEMORY.md"
    md.write_text(MEMORY_MD + "\n## Hand-written\n\nAdded after the import.\n", "utf-8")
    slm("memory-export", "--format", "workspace", "--output", ".")
    text = md.read_text(encoding="utf-8")
    assert text.startswith(MEMORY_MD.rstrip("\n")) and "Added after the import." in text
    hits = json.loads(slm("memory-search", "hand-written", "--json").stdout)["results"]
    assert hits and hits[0]["type"] == "context"


def test_inserting_a_memory_md_section_adds_only_that_section(
    slm: Runner, workspace: Path, tmp_path: Path
) -> None:
    build_slm_workspace(workspace)
    slm("memory-init")
    edited = MEMORY_MD.replace("## Deployment", "## Testing\n\nRun pytest -q.\n\n## Deployment")
    (workspace / "MEMORY.md").write_text(edited, encoding="utf-8")
    done = json.loads(slm("memory-import", "--file", "MEMORY.md", "--json").stdout)
    assert done["added"] == 1 and done["updated"] == 0
    slm("memory-export", "--format", "workspace", "--output", str(tmp_path / "out"))
    sections = split_markdown((tmp_path / "out" / "MEMORY.md").read_text(encoding="utf-8"))
    assert [h for h, _ in sections].count("Deployment") == 1 and len(sections) == 4
