"""``render.install``: the status text, line by line, and its data."""

from __future__ import annotations

from toon_memory.model.install_status import AgentStatus, FileStatus, InstallStatus
from toon_memory.render.install import NOTHING, status_shown


def _file(**changes: object) -> FileStatus:
    base = {"scope": "project", "path": "/p/.mcp.json", "shown": ".mcp.json",
            "what": "MCP entry", "state": "installed"}  # fmt: skip
    return FileStatus(**{**base, **changes})  # type: ignore[arg-type]


def test_nothing_installed_says_how_to_install() -> None:
    shown = status_shown(InstallStatus(()), {})
    assert shown.text == NOTHING and "toon-memory init" in NOTHING
    assert shown.data == {"installed": False, "ok": True, "agents": []}


def test_each_state_has_its_line_and_ok() -> None:
    files = (
        _file(),
        _file(waiting_for="the folder trust"),
        _file(server="answers", tools=38),
        _file(server="fails", problem="exit 1"),
        _file(missing=("/gone/python", "/gone/x")),
        _file(scope="user", shown="~/.x.json", what="hooks", state="error", problem="x:1: bad"),
    )
    shown = status_shown(InstallStatus((AgentStatus("claude", "Claude Code", files),)), {})
    assert shown.text.splitlines() == [
        "Claude Code",
        "  project .mcp.json  MCP entry: installed",
        "  project .mcp.json  MCP entry: installed; written, waiting for the folder trust",
        "  project .mcp.json  MCP entry: installed; server answers (38 tools)",
        "  project .mcp.json  MCP entry: installed; server fails: exit 1",
        "  project .mcp.json  MCP entry: installed; names /gone/python, /gone/x, which does not "
        "exist here",
        "  user    ~/.x.json  hooks: error (x:1: bad)",
    ]
    assert [f["ok"] for f in shown.data["agents"][0]["files"]] == [True, True, True, False, False,
                                                                   False]  # fmt: skip
    assert shown.data["ok"] is False
    assert shown.data["agents"][0]["files"][2]["server"] == {"answers": True, "tools": 38}
    assert shown.data["agents"][0]["files"][4]["missing"] == ["/gone/python", "/gone/x"]


def test_all_fine_is_ok() -> None:
    agent = AgentStatus("codex", "Codex CLI", (_file(), _file(server="answers", tools=1)))
    assert InstallStatus((agent,)).ok and status_shown(InstallStatus((agent,)), {}).data["ok"]
