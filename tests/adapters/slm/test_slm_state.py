"""Hot memory: SESSION-STATE.json through the pure API and ``toon-memory state``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.adapters.slm.conftest import Runner

from toon_memory.errors import CorruptFileError, InputError
from toon_memory.store.hot_state import clear_state, read_state, update_state


def test_api_reads_missing_file_as_empty(tmp_path: Path) -> None:
    assert read_state(tmp_path) == {
        "current_task": "", "key_context": [], "pending_actions": [],
        "recent_decisions": [], "last_updated": "",
    }  # fmt: skip


def test_api_updates_keep_unknown_keys(tmp_path: Path) -> None:
    path = tmp_path / "SESSION-STATE.json"
    path.write_text(json.dumps({"current_task": "a", "custom": {"x": 1}}), encoding="utf-8")
    state = update_state(tmp_path, set_fields={"current_task": "b"},
                         add={"key_context": ["k1", "k2"], "pending-actions": ["p"]})  # fmt: skip
    assert state["current_task"] == "b" and state["custom"] == {"x": 1}
    assert state["key_context"] == ["k1", "k2"] and state["pending_actions"] == ["p"]
    assert state["last_updated"].startswith("2026-07-15T")
    update_state(tmp_path, add={"key_context": ["k1", "k3"]})
    assert read_state(tmp_path)["key_context"] == ["k1", "k2", "k3"]
    cleared = clear_state(tmp_path)
    assert cleared["key_context"] == [] and cleared["current_task"] == ""
    assert cleared["custom"] == {"x": 1}
    assert not list(tmp_path.glob(".SESSION-STATE.json.*"))  # no temp file left


def test_api_rejects_bad_fields_and_files(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="field"):
        update_state(tmp_path, add={"current_task": ["x"]})
    with pytest.raises(InputError, match="field"):
        update_state(tmp_path, set_fields={"mood": "ok"})
    assert not (tmp_path / "SESSION-STATE.json").exists()
    (tmp_path / "SESSION-STATE.json").write_text("{oops", encoding="utf-8")
    with pytest.raises(CorruptFileError):
        read_state(tmp_path)


def test_state_commands(toon: Runner, workspace: Path) -> None:
    toon("state", "set", "current_task", "ship", "v2")
    toon("state", "add", "key_context", "Tailwind", "dark mode")
    toon("state", "add", "recent-decisions", "React")
    data = json.loads(toon("state", "show", "--json").stdout)
    assert data["current_task"] == "ship v2"
    assert data["key_context"] == ["Tailwind", "dark mode"]
    assert data["recent_decisions"] == ["React"]
    on_disk = json.loads((workspace / "SESSION-STATE.json").read_text(encoding="utf-8"))
    assert on_disk == data
    assert "  - Tailwind" in toon("state", "show").stdout
    toon("state", "clear", "key_context")
    data = json.loads(toon("state", "show", "--json").stdout)
    assert data["key_context"] == [] and data["current_task"] == "ship v2"
    toon("state", "clear")
    assert json.loads(toon("state", "show", "--json").stdout)["current_task"] == ""
    bad = toon("state", "add", "current_task", "x", check=False)
    assert bad.returncode == 2 and "field" in bad.stderr
