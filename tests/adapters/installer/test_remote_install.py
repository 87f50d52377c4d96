"""``init --server URL --token-env VAR``: remote MCP entries, hook lines naming the server.

Through the real CLI in a subprocess, in both scopes: each agent that can gets exactly
its documented remote entry, the Authorization header in the agent's own interpolation
syntax; the token (set in the environment) is in no file; hooks name the server; an
agent that cannot point at a team server is skipped, says why and gets nothing; status
reports the team server; uninstall restores every file byte for byte.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import tomlkit
from tests.adapters.installer.helpers import run_cli, snapshot

from toon_memory.adapters.installer.catalog import AGENTS, find_agent
from toon_memory.adapters.installer.remote import RemoteServer, remote_server
from toon_memory.errors import InputError

URL = "https://memory.example.com/mcp/acme"
TOKEN = "secret-token-3c9e1f7a5b2d"
VAR = "ACME_MEMORY_TOKEN"


def _bearer(syntax: str) -> dict[str, str]:
    return {"Authorization": "Bearer " + syntax}


#: agent -> (project file, user file relative to HOME, key path, the entry written).
EXPECTED: dict[str, tuple[str, str, tuple[str, ...], dict[str, Any]]] = {
    "claude": (".mcp.json", ".claude.json", ("mcpServers",),
               {"type": "http", "url": URL, "headers": _bearer(f"${{{VAR}}}")}),
    "codex": (".codex/config.toml", ".codex/config.toml", ("mcp_servers",),
              {"url": URL, "bearer_token_env_var": VAR}),
    "gemini": (".gemini/settings.json", ".gemini/settings.json", ("mcpServers",),
               {"httpUrl": URL, "headers": _bearer(f"${VAR}")}),
    "qwen": (".qwen/settings.json", ".qwen/settings.json", ("mcpServers",),
             {"httpUrl": URL, "headers": _bearer(f"${VAR}")}),
    "opencode": ("opencode.json", ".config/opencode/opencode.json", ("mcp",),
                 {"type": "remote", "enabled": True, "url": URL,
                  "headers": _bearer(f"{{env:{VAR}}}")}),
    "kilo": ("", ".config/kilo/kilo.jsonc", ("mcp",),
             {"type": "remote", "enabled": True, "url": URL, "headers": _bearer(f"{{env:{VAR}}}")}),
    "copilot-cli": (".github/mcp.json", ".copilot/mcp-config.json", ("mcpServers",),
                    {"type": "http", "tools": ["*"], "url": URL, "headers": _bearer(f"${{{VAR}}}")}),
    "cursor": (".cursor/mcp.json", ".cursor/mcp.json", ("mcpServers",),
               {"url": URL, "headers": _bearer(f"${{env:{VAR}}}")}),
    "vscode": (".vscode/mcp.json", ".config/Code/User/mcp.json", ("servers",),
               {"type": "http", "url": URL, "headers": _bearer(f"${{env:{VAR}}}")}),
    "windsurf": ("", ".codeium/windsurf/mcp_config.json", ("mcpServers",),
                 {"serverUrl": URL, "headers": _bearer(f"${{env:{VAR}}}")}),
    "amp": (".amp/settings.json", ".config/amp/settings.json", ("amp.mcpServers",),
            {"url": URL, "headers": _bearer(f"${{{VAR}}}")}),
    "grok": (".grok/config.toml", ".grok/config.toml", ("mcp_servers",),
             {"url": URL, "headers": _bearer(f"${{{VAR}}}")}),
}  # fmt: skip


def _read(path: Path) -> dict[str, Any]:
    text = path.read_text()
    if path.suffix == ".toml":
        return dict(tomlkit.parse(text).unwrap())
    from toon_memory.adapters.installer.jsontext import parse, to_python

    found: dict[str, Any] = to_python(parse(text, "jsonc").root)
    return found


def test_every_agent_either_points_at_a_team_server_or_says_why() -> None:
    for agent in AGENTS:
        ok = [agent.remote_ok(scope) for scope in agent.scopes]
        assert all(ok) or agent.no_remote, agent.id
    kilo = find_agent("kilo")
    assert (kilo.remote_ok("project"), kilo.remote_ok("user")) == (False, True)
    assert {a.id for a in AGENTS if any(a.remote_ok(s) for s in a.scopes)} == set(EXPECTED)


@pytest.mark.parametrize("scope", ["local", "global"])
@pytest.mark.parametrize("agent", sorted(EXPECTED))
def test_init_server_writes_the_remote_entry_and_uninstall_restores(
    agent: str, scope: str, env: dict[str, str], proj: Path
) -> None:
    project_file, user_file, key, entry = EXPECTED[agent]
    if scope == "local" and not find_agent(agent).remote_ok("project"):
        pytest.skip(f"{agent} points at a team server only from its user file")
    home = Path(env["HOME"])
    target = proj / project_file if scope == "local" else home / user_file
    target.parent.mkdir(parents=True, exist_ok=True)
    original = '# theirs\nmodel = "o3"\n' if target.suffix == ".toml" else '{"theirs": 1}\n'
    target.write_text(original)
    before = snapshot(proj, home)
    secret = {**env, VAR: TOKEN, "TOON_MEMORY_TOKEN": TOKEN}
    done = run_cli("init", scope, "--agents", agent, "--yes", "--server", URL, "--token-env", VAR,
                   cwd=proj, env=secret)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert f"team server: {URL} (token from ${VAR}" in done.stdout
    found = _read(target)
    for part in key:
        found = found[part]
    assert found["toon-memory"] == entry
    written = snapshot(proj, home)
    assert not [path for path, data in written.items() if TOKEN.encode() in data]
    assert not (proj / ".toon-memory").exists()  # the memory is the server's
    hooks = [data for data in written.values() if b" hook session-start " in data]
    for data in hooks:
        assert f"--server {URL} --token-env {VAR}".encode() in data
    status = run_cli("status", "--json", "--no-probe", cwd=proj, env=secret)
    files = [f for a in json.loads(status.stdout)["agents"] if a["agent"] == agent
             for f in a["files"]]  # fmt: skip
    assert [f["remote"] for f in files if f["what"] == "MCP entry"] == [URL], status.stdout
    again = run_cli("init", scope, "--agents", agent, "--yes", "--server", URL, "--token-env", VAR,
                    cwd=proj, env=secret)  # fmt: skip
    assert again.returncode == 0 and snapshot(proj, home) == written
    gone = run_cli("uninstall", "--agents", agent, "--yes", cwd=proj, env=secret)
    assert gone.returncode == 0, gone.stderr
    assert snapshot(proj, home) == before


def test_a_local_install_switches_to_the_server_and_back(env: dict[str, str], proj: Path) -> None:
    assert (
        run_cli("init", "local", "--agents", "claude", "--yes", cwd=proj, env=env).returncode == 0
    )
    assert run_cli("init", "local", "--agents", "claude", "--yes", "--server", URL, cwd=proj,
                   env=env).returncode == 0  # fmt: skip
    entry = json.loads((proj / ".mcp.json").read_text())["mcpServers"]["toon-memory"]
    assert entry == {"type": "http", "url": URL, "headers": _bearer("${TOON_MEMORY_TOKEN}")}
    hooks = (proj / ".claude/settings.json").read_text()
    assert hooks.count(f"--server {URL}") == 3 and "--token-env" not in hooks
    status = run_cli("status", "--no-probe", cwd=proj, env=env).stdout
    assert f".mcp.json  MCP entry: installed; points at the team server {URL}" in status
    assert (
        run_cli("init", "local", "--agents", "claude", "--yes", cwd=proj, env=env).returncode == 0
    )
    entry = json.loads((proj / ".mcp.json").read_text())["mcpServers"]["toon-memory"]
    assert (
        entry["type"] == "stdio" and "--server" not in (proj / ".claude/settings.json").read_text()
    )


def test_an_agent_without_remote_support_is_skipped_and_says_why(
    env: dict[str, str], proj: Path
) -> None:
    before = snapshot(proj, Path(env["HOME"]))
    done = run_cli("init", "local", "--agents", "zed,junie,claude", "--yes", "--server", URL,
                   cwd=proj, env=env)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "– Zed (project)" in done.stdout and "– Junie (project)" in done.stdout
    assert f"not supported with --server: {find_agent('junie').no_remote}" in done.stdout
    assert not (proj / ".zed").exists() and not (proj / ".junie").exists()
    assert (proj / ".mcp.json").is_file()
    run_cli("uninstall", "--yes", cwd=proj, env=env)
    assert snapshot(proj, Path(env["HOME"])) == before


def test_the_summary_of_found_agents_says_which_are_skipped(
    env: dict[str, str], proj: Path
) -> None:
    (proj / ".zed").mkdir()
    (proj / ".cursor").mkdir()
    found = run_cli("init", "local", "--server", URL, cwd=proj, env={**env, "PATH": "/nonexistent"})
    assert found.returncode == 0, found.stderr
    assert "Zed → skipped (not supported with --server: Zed documents" in found.stdout
    assert "Cursor → project → .cursor/mcp.json (MCP entry)" in found.stdout
    assert not (proj / ".cursor/mcp.json").exists()  # a summary only: no --yes


@pytest.mark.parametrize(
    ("args", "field"),
    [(["--server", "memory.example.com/mcp"], "server"),
     (["--server", "https://user:pw@memory.example.com/mcp"], "server"),
     (["--server", URL, "--token-env", "MY-TOKEN"], "token_env")],
)  # fmt: skip
def test_a_bad_server_or_variable_is_refused_naming_it(
    args: list[str], field: str, env: dict[str, str], proj: Path
) -> None:
    done = run_cli("init", "local", "--agents", "claude", "--yes", *args, cwd=proj, env=env)
    assert done.returncode == 2 and done.stderr.startswith(f"error: {field}: "), done.stderr
    assert not (proj / ".mcp.json").exists()


def test_remote_server_checks_and_hook_args() -> None:
    assert remote_server(f" {URL} ") == RemoteServer(URL, "TOON_MEMORY_TOKEN")
    assert remote_server(URL).hook_args() == ("--server", URL)
    assert remote_server(URL, "T_1").hook_args() == ("--server", URL, "--token-env", "T_1")
    for url in ("", "ftp://h/mcp", "http://", "http://[::1/mcp"):
        with pytest.raises(InputError, match="server"):
            remote_server(url)
    for name in ("", "1A", "A B", "A$"):
        with pytest.raises(InputError, match="token_env"):
            remote_server(URL, name or " ")


def test_status_reads_the_variable_back_out_of_every_remote_entry() -> None:
    """``status`` probes with the token of the variable an entry names, in any agent's syntax."""
    from toon_memory.adapters.installer.shapes import token_env_of

    for agent, (_, _, _, entry) in EXPECTED.items():
        assert token_env_of(entry) == VAR, agent
    for entry in ({"url": URL, "headers": _bearer("literal-token")}, {"url": URL}, "x",
                  {"url": URL, "headers": _bearer(f"${VAR} extra")}):  # fmt: skip
        assert token_env_of(entry) is None, entry
