"""``model.install_status``: a file is fine unless it does not parse, names a missing path or
its server failed; the JSON form says exactly what the record holds."""

from __future__ import annotations

import json

import pytest

from toon_memory.model.install_status import AgentStatus, FileStatus, InstallStatus


def _file(**changes: object) -> FileStatus:
    base: dict[str, object] = {"scope": "project", "path": "/p/.mcp.json", "shown": ".mcp.json",
                               "what": "MCP entry", "state": "installed"}  # fmt: skip
    base.update(changes)
    return FileStatus(**base)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("changes", "ok"),
    [
        ({}, True),
        ({"waiting_for": "Claude's approval"}, True),
        ({"server": "answers", "tools": 39}, True),
        ({"state": "error", "problem": "line 3: expected ','"}, False),
        ({"missing": ("/gone/bin/toon-memory",)}, False),
        ({"server": "fails", "problem": "exit 1"}, False),
    ],
)
def test_a_file_is_fine_unless_broken_missing_or_failing(
    changes: dict[str, object], ok: bool
) -> None:
    assert _file(**changes).ok is ok


def test_the_json_form_holds_only_what_is_set() -> None:
    plain = _file().to_dict()
    assert plain == {"scope": "project", "path": "/p/.mcp.json", "what": "MCP entry",
                     "state": "installed", "ok": True}  # fmt: skip
    full = _file(missing=("/x",), waiting_for="trust", server="fails", problem="boom").to_dict()
    assert full["missing"] == ["/x"] and full["waiting_for"] == "trust"
    assert full["server"] == {"answers": False, "tools": 0} and full["ok"] is False
    json.dumps(full)  # plain JSON types only


def test_the_whole_status_is_ok_only_when_every_file_is() -> None:
    good = AgentStatus("claude", "Claude Code", (_file(),))
    bad = AgentStatus("codex", "Codex CLI", (_file(), _file(state="error", problem="p")))
    assert InstallStatus(()).to_dict() == {"installed": False, "ok": True, "agents": []}
    assert InstallStatus((good,)).ok
    both = InstallStatus((good, bad))
    assert not both.ok
    assert [a["agent"] for a in both.to_dict()["agents"]] == ["claude", "codex"]
