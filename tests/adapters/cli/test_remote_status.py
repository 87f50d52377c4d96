"""``toon-memory status`` probing the remote entries ``init --server`` wrote: a real team server.

The real CLI in subprocesses, configs under a fake home, against a real ``toon-memory mcp
--http`` on 127.0.0.1 (``teamserver.py``): with the token in the variable the entries name,
each entry's server answers with its tools; a wrong token fails naming 401 and the variable,
an unset variable fails naming it, a dead port fails naming the URL; ``--no-probe``
connects to nothing. The token is never printed.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from tests.adapters.cli.teamserver import TOKEN, TeamServer, dead_url, team_server
from tests.adapters.installer.helpers import fake_env, run_cli

from toon_memory.adapters.server.tools import TOOLS

VAR = "TEAM_T"
#: Agents whose remote entries read the token in three syntaxes (``${VAR}``, Codex's
#: ``bearer_token_env_var``, ``$VAR``).
AGENTS = "claude,codex,gemini"


@pytest.fixture
def server(tmp_path: Path) -> Any:
    with team_server(tmp_path) as running:
        yield running


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    values = fake_env(tmp_path)
    for name in os.environ:
        if name.startswith(("TOON_MEMORY_TOKEN", "TOON_MEMORY_SERVER", VAR)):
            values[name] = ""
    return values


def _installed(tmp_path: Path, env: dict[str, str], url: str) -> Path:
    proj = tmp_path / "work" / "proj"
    (proj / ".git").mkdir(parents=True)
    done = run_cli("init", "local", "--agents", AGENTS, "--yes", "--server", url, "--token-env",
                   VAR, cwd=proj, env=env)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    return proj


def _entries(proj: Path, env: dict[str, str], *args: str) -> tuple[int, list[dict[str, Any]], str]:
    """``status --json``'s exit code, its MCP entries, and the whole output."""
    shown = run_cli("status", "--json", *args, cwd=proj, env=env)
    data = json.loads(shown.stdout)
    entries = [f for a in data["agents"] for f in a["files"] if f["what"] == "MCP entry"]
    assert len(entries) == 3, shown.stdout
    return shown.returncode, entries, shown.stdout + shown.stderr


def test_each_remote_entry_answers_with_the_servers_tools(
    server: TeamServer, tmp_path: Path, env: dict[str, str]
) -> None:
    proj = _installed(tmp_path, env, server.url)
    code, entries, _ = _entries(proj, {**env, VAR: TOKEN})
    assert code == 0
    for entry in entries:
        assert entry["remote"] == server.url and entry["ok"], entry
        assert entry["server"] == {"answers": True, "tools": len(TOOLS)}, entry
    text = run_cli("status", cwd=proj, env={**env, VAR: TOKEN}).stdout
    assert f"points at the team server {server.url}" in text
    assert f"server answers ({len(TOOLS)} tools)" in text and TOKEN not in text
    code, entries, _ = _entries(proj, env, "--no-probe")  # no variable needed, nothing asked
    assert code == 0 and not any("server" in entry for entry in entries)


def test_a_wrong_token_or_an_unset_variable_fails_naming_them(
    server: TeamServer, tmp_path: Path, env: dict[str, str]
) -> None:
    proj = _installed(tmp_path, env, server.url)
    wrong = "wrong-token-7a6b5c4d3e2f"
    code, entries, output = _entries(proj, {**env, VAR: wrong})
    assert code == 1 and wrong not in output and TOKEN not in output
    for entry in entries:
        assert entry["server"] == {"answers": False, "tools": 0} and not entry["ok"]
        assert "401" in entry["problem"] and VAR in entry["problem"], entry
    code, entries, output = _entries(proj, env)
    assert code == 1
    for entry in entries:
        assert entry["problem"].startswith(f"{VAR} is not set here"), entry
    text = run_cli("status", cwd=proj, env=env).stdout
    assert f"server fails: {VAR} is not set here" in text


def test_a_dead_port_fails_naming_the_url(tmp_path: Path, env: dict[str, str]) -> None:
    url = dead_url()
    proj = _installed(tmp_path, env, url)
    code, entries, output = _entries(proj, {**env, VAR: TOKEN})
    assert code == 1 and TOKEN not in output
    for entry in entries:
        assert f"cannot reach the team server at {url}" in entry["problem"], entry
