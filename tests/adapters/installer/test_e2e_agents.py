"""The written server command, started exactly as each agent would start it, answers tools/list.

Claude Code and Codex start servers in the project; Cursor in the home folder;
VS Code outside the workspace (here ``/``); OpenCode in the project. Each
reads its own file with its own format, puts in its workspace variable
(``${workspaceFolder}``: Cursor, VS Code) and spawns ``command``/``args`` (or
OpenCode's command array) with the environment it passes (ours plus the
entry's ``env``) through the real MCP client over stdio. The project file
names no path of this machine, so a teammate's clone works: the test starts
it from a copy of the project in another folder.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import anyio
import pytest

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomlkit as tomllib  # type: ignore[no-redef]
from mcp.client import Client
from mcp.client.stdio import StdioServerParameters
from tests.adapters.installer.helpers import command, places_for

from toon_memory.adapters.installer import engine
from toon_memory.adapters.installer.catalog import find_agent
from toon_memory.adapters.installer.jsontext import parse, to_python


def _jsonc(path: Path) -> Any:
    return to_python(parse(path.read_text(), "jsonc").root)


def _claude(proj: Path, home: Path) -> tuple[list[str], dict[str, str], Path]:
    entry = json.loads((proj / ".mcp.json").read_text())["mcpServers"]["toon-memory"]
    assert entry["type"] == "stdio"
    return [entry["command"], *entry["args"]], entry.get("env", {}), proj


def _codex(proj: Path, home: Path) -> tuple[list[str], dict[str, str], Path]:
    entry = tomllib.loads((proj / ".codex/config.toml").read_text())["mcp_servers"]["toon-memory"]
    return [entry["command"], *entry["args"]], entry.get("env", {}), proj


def _cursor(proj: Path, home: Path) -> tuple[list[str], dict[str, str], Path]:
    entry = json.loads((proj / ".cursor/mcp.json").read_text())["mcpServers"]["toon-memory"]
    return [entry["command"], *entry["args"]], entry.get("env", {}), home


def _vscode(proj: Path, home: Path) -> tuple[list[str], dict[str, str], Path]:
    entry = _jsonc(proj / ".vscode/mcp.json")["servers"]["toon-memory"]
    assert entry["type"] == "stdio"
    return [entry["command"], *entry["args"]], entry.get("env", {}), Path("/")


def _opencode(proj: Path, home: Path) -> tuple[list[str], dict[str, str], Path]:
    entry = _jsonc(proj / "opencode.json")["mcp"]["toon-memory"]
    assert entry["type"] == "local" and entry["enabled"] is True
    return list(entry["command"]), entry.get("environment", {}), proj


READERS = {"claude": _claude, "codex": _codex, "cursor": _cursor, "vscode": _vscode,
           "opencode": _opencode}  # fmt: skip


async def _tools(argv: list[str], env: dict[str, str], cwd: Path) -> list[str]:
    params = StdioServerParameters(command=argv[0], args=argv[1:], env=env, cwd=cwd)
    with anyio.fail_after(60):
        async with Client(params) as client:
            return [tool.name for tool in (await client.list_tools()).tools]


@pytest.mark.parametrize("name", sorted(READERS))
def test_written_command_answers_tools_list(
    name: str, env: dict[str, str], proj: Path, tmp_path: Path
) -> None:
    places = places_for(proj, env)
    assert engine.install(find_agent(name), "project", places, command()).ok
    clone = tmp_path / "teammate" / "proj"
    shutil.copytree(proj, clone)
    argv, extra, cwd = READERS[name](clone, Path(env["HOME"]))
    assert argv[0] == "toon-memory"
    assert not [a for a in argv if str(tmp_path) in a]
    argv = [a.replace("${workspaceFolder}", str(clone)) for a in argv]
    agent_env = {**os.environ, **env, **extra}
    agent_env.pop("TOON_MEMORY_PROJECT", None)

    async def play() -> list[str]:
        return await _tools(argv, agent_env, cwd)

    tools = anyio.run(play)
    assert "memory_remember" in tools and "memory_recall" in tools
    assert not (cwd / ".toon-memory").exists() or cwd == clone
    assert not (proj / ".toon-memory").exists()
