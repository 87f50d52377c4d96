"""Renderers of the views moved out of the adapters: current, the hook's start, a viewer export."""

from __future__ import annotations

import json
from pathlib import Path

from tests.clirunner import invoke

from toon_memory.memory.api import CURRENT_DAYS, Memory
from toon_memory.render.results import current
from toon_memory.render.viewer import page_exported


def test_current_text_and_data(project: Path) -> None:
    memory = Memory(project)
    memory.remember("decision", "use-zod", "Validate input with zod")
    shown = current(memory.current(), {"days": CURRENT_DAYS})
    assert shown.text.startswith(
        f"# Current memory (pinned, and changed in the last {CURRENT_DAYS}"
    )
    assert "use-zod" in shown.text
    assert [row["key"] for row in shown.data["results"]] == ["use-zod"]
    empty = current([], {"days": 3})
    assert "No entries changed in the last 3 days." in empty.text and empty.data["results"] == []


def test_page_exported_names_the_file_and_counts() -> None:
    payload = {"entries": [{}, {}], "edges": [{}]}
    shown = page_exported(payload, {"path": Path("/tmp/v.html")})
    assert shown.text.startswith("🧠 Wrote /tmp/v.html (2 entries, 1 links)")
    assert shown.data == {"path": "/tmp/v.html", "entries": 2, "links": 1}


def test_viewer_export_takes_json(project: Path, tmp_path: Path) -> None:
    Memory(project).remember("decision", "use-zod", "Validate input with zod [[zod-schemas]]")
    target = tmp_path / "v.html"
    done = invoke("viewer", "--export", str(target), "--json", project=project)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"path": str(target), "entries": 1, "links": 0}
    assert target.read_text(encoding="utf-8").startswith("<!")
    text = invoke("viewer", "--export", str(target), project=project)
    assert text.stdout.startswith(f"🧠 Wrote {target} (1 entries")
    live = invoke("viewer", "--no-open", "--json", project=project)
    assert live.returncode == 2 and "--json goes with --export" in live.stderr
