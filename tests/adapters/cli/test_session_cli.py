"""``toon-memory sessions | merge-sessions | captured`` through the real CLI: the same
renderers as the MCP tools, ``--json``, and bad arguments (exit 2, nothing written)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.adapters.server.helpers import snapshot
from tests.conftest import run_cli

from toon_memory import Memory
from toon_memory.store.config import update_config


@pytest.fixture
def observed(project: Path) -> Path:
    memory = Memory(project)
    memory.init()
    memory.sessions.beat("s-one", agent="claude", pid=3001, files=["src/api.py"],
                         notes=[("src/api.py", "Handlers validate input with pydantic models")])  # fmt: skip
    memory.sessions.beat("s-two", agent="gemini", pid=3002, files=["src/api.py"],
                         notes=[("src/api.py", "Handlers validate the input with pydantic models"),
                                ("src/api.py", "Errors are returned as RFC 7807 problem details")])  # fmt: skip
    update_config(memory.paths.config, {"capture": True})
    memory.sessions.tool_used(
        "s-one", agent=None, files=["src/api.py"], tool="Edit", summary="Edit src/api.py"
    )
    return project


def test_sessions_text_json_and_you(observed: Path) -> None:
    text = run_cli(
        "sessions", project=observed, check=True, env={"TOON_MEMORY_SESSION": "s-two"}
    ).stdout
    assert "🧭 Active sessions (2), window 10 min:" in text
    assert "• gemini (you)" in text and "• claude\n" in text
    assert "🔥 Soft conflicts (1):" in text and "src/api.py" in text
    data = json.loads(
        run_cli("sessions", "--conflicts-only", "--json", project=observed, check=True).stdout
    )
    assert data == {"window_minutes": 10, "you": None,
                    "conflicts": [{"file": "src/api.py", "sessions": ["s-one", "s-two"]}]}  # fmt: skip


def test_merge_sessions_then_promote(observed: Path) -> None:
    text = run_cli("merge-sessions", "src/api.py", project=observed, check=True).stdout
    assert text.startswith("🔀 src/api.py: 4 observations from 2 sessions → 3 merged")
    assert Memory(observed).entries() == []
    data = json.loads(run_cli("merge-sessions", "./src/api.py", "--promote", "--json",
                              project=observed, check=True).stdout)  # fmt: skip
    assert len(data["promoted"]) == 3 and all(p["created"] for p in data["promoted"])
    assert {e.file for e in Memory(observed).entries()} == {"src/api.py"}


def test_captured_list_and_clear(observed: Path) -> None:
    listed = run_cli("captured", "--limit", "10", project=observed, check=True).stdout
    assert "capture on" in listed and "Edit src/api.py" in listed
    assert json.loads(run_cli("captured", "clear", "--json", project=observed, check=True).stdout) == {
        "action": "clear", "capture": True, "cleared": 1,
    }  # fmt: skip
    assert "No captured activity" in run_cli("captured", project=observed, check=True).stdout


@pytest.mark.parametrize(
    ("args", "says"),
    [(["merge-sessions", "  ", "--promote"], "file"),
     (["captured", "purge"], "purge"),
     (["captured", "clear", "--limit", "0"], "limit"),
     (["sessions", "--window", "5"], "window")],
)  # fmt: skip
def test_bad_arguments_exit_2_and_write_nothing(observed: Path, args: list[str], says: str) -> None:
    before = snapshot(observed / ".toon-memory")
    done = run_cli(*args, project=observed)
    assert done.returncode == 2 and says in done.stderr
    assert snapshot(observed / ".toon-memory") == before
