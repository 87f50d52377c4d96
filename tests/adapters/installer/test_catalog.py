"""Every agent, every scope it supports: fresh install, install over a user's config with
other servers and comments, a second install (no byte changes), uninstall (original bytes
back) and a config that does not parse (untouched, error naming file and line)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomlkit as tomllib  # type: ignore[no-redef]
from tests.adapters.installer.helpers import command, places_for, snapshot, users_claude_settings

from toon_memory.adapters.installer import engine, status
from toon_memory.adapters.installer.catalog import AGENTS, find_agent, select
from toon_memory.adapters.installer.documents import open_document
from toon_memory.adapters.installer.jsontext import parse
from toon_memory.adapters.installer.spec import Agent, Entry, ListEntries, OwnedFile

CASES = [(agent, scope) for agent in AGENTS for scope in agent.scopes]
IDS = [f"{agent.id}-{scope}" for agent, scope in CASES]
OTHER = {"command": "other-server", "args": ["--serve"]}


def _nest(path: tuple[Any, ...], leaf: Any) -> Any:
    for step in reversed(path):
        leaf = {step: leaf}
    return leaf


def existing_text(part: Any) -> str:
    """A user's config for ``part``: another server, another key, comments where allowed."""
    if isinstance(part, ListEntries):
        return "# keep me\nread: NOTES.md  # theirs\n"
    key = part.path[:-1]
    data = {"keepMe": True, **_nest(key, {"other": OTHER})}
    if part.fmt == "json":
        return json.dumps(data, indent=2) + "\n"
    if part.fmt == "jsonc":
        return json.dumps(data, indent=4).replace("{\n", "{\n    // keep me\n", 1) + "\n"
    if part.fmt == "json5":
        inner = json.dumps(_nest(key, {"other": OTHER})[key[0]])
        return f"{{\n  // keep me\n  keepMe: true,\n  {key[0]}: {inner},\n}}\n"
    if part.fmt == "toml":
        return '# keep me\nkeep_me = true\n\n[mcp_servers.other]\ncommand = "other-server"\n'
    return "# keep me\nkeepMe: true\nextensions:\n  other:\n    cmd: other-server  # theirs\n"


BROKEN = {
    "json": '{\n  "a": 1,\n  "b": \n}\n',
    "jsonc": '{\n  // c\n  "a": [1, 2\n}\n',
    "json5": "{\n  a: 1,\n  b: ,\n}\n",
    "toml": "a = 1\nb = = 2\n",
    "yaml": "a: 1\nb: [1, 2\nc: 3\n",
}


def _main(agent: Agent, scope: str, places: Any) -> tuple[Any, Path]:
    setup = agent.setup(scope)
    assert setup is not None
    part = setup.parts[0]
    return part, part.targets(places)[0]


def _parses(path: Path, fmt: str) -> Any:
    text = path.read_text(encoding="utf-8")
    if fmt == "json":
        return json.loads(text)
    if fmt == "toml":
        return tomllib.loads(text)
    return open_document(fmt, text).get(())


@pytest.mark.parametrize(("agent", "scope"), CASES, ids=IDS)
def test_fresh_install_twice_then_uninstall(agent: Agent, scope: str, env: dict[str, str],
                                           proj: Path, tmp_path: Path) -> None:  # fmt: skip
    places = places_for(proj, env)
    before = snapshot(tmp_path)
    report = engine.install(agent, scope, places, command())
    assert report.ok, report.errors
    assert status.installed(agent, scope, places)
    for path, _what in engine.plan(agent, scope, places):
        assert path.is_file(), path
    setup = agent.setup(scope)
    assert setup is not None
    for part in setup.parts:
        if isinstance(part, (Entry, ListEntries)):
            for path in part.targets(places):
                assert _parses(path, part.fmt)
    written = snapshot(tmp_path)
    again = engine.install(agent, scope, places, command())
    assert {c.action for c in again.changes} == {"unchanged"}
    assert snapshot(tmp_path) == written
    gone = engine.uninstall(agent, scope, places)
    assert gone.ok, gone.errors
    assert not status.installed(agent, scope, places)
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize(("agent", "scope"), CASES, ids=IDS)
def test_install_over_a_users_config(agent: Agent, scope: str, env: dict[str, str], proj: Path,
                                     tmp_path: Path) -> None:  # fmt: skip
    places = places_for(proj, env)
    part, path = _main(agent, scope, places)
    if isinstance(part, OwnedFile):
        path = path.with_name("other.yaml")
        original = "name: other  # keep me\n"
    else:
        original = existing_text(part)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(original, encoding="utf-8")
    before = snapshot(tmp_path)
    report = engine.install(agent, scope, places, command())
    assert report.ok, report.errors
    text = path.read_text(encoding="utf-8")
    assert "keep" in text.lower()
    if isinstance(part, Entry):
        assert part.fmt == "toml" or "other-server" in text
        doc = open_document(part.fmt, text)
        assert doc.get((*part.path[:-1], "other")) not in (None, {})
        assert part.present(doc)
    written = snapshot(tmp_path)
    engine.install(agent, scope, places, command())
    assert snapshot(tmp_path) == written
    assert engine.uninstall(agent, scope, places).ok
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize(("agent", "scope"), CASES, ids=IDS)
def test_broken_config_is_left_untouched(agent: Agent, scope: str, env: dict[str, str],
                                         proj: Path) -> None:  # fmt: skip
    places = places_for(proj, env)
    part, path = _main(agent, scope, places)
    text = "my own notes\n" if isinstance(part, OwnedFile) else BROKEN[part.fmt]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    report = engine.install(agent, scope, places, command())
    assert not report.ok
    assert path.read_text(encoding="utf-8") == text
    assert not path.with_name(path.name + ".toon-memory.bak").exists()
    error = report.errors[0]
    assert str(path) in error
    if not isinstance(part, OwnedFile):
        assert re.search(re.escape(str(path)) + r":\d+: ", error), error
    assert path.read_text(encoding="utf-8") == text
    assert not engine.uninstall(agent, scope, places).ok
    assert path.read_text(encoding="utf-8") == text


def test_the_catalog_has_23_agents_with_unique_names() -> None:
    assert len(AGENTS) == 23
    names = [n for a in AGENTS for n in (a.id, *a.aliases)]
    assert len(names) == len(set(names))
    assert all(a.scopes for a in AGENTS)


def test_agents_are_found_by_id_alias_title_and_all() -> None:
    assert find_agent("Claude Code").id == "claude"
    assert find_agent("copilot").id == "copilot-cli"
    assert find_agent("github-copilot").id == "vscode"
    assert [a.id for a in select("claude, codex")] == ["claude", "codex"]
    assert len(select("all")) == 23
    with pytest.raises(Exception, match="unknown agent"):
        find_agent("notepad")


def test_codex_gets_mcp_servers_not_mcpservers(env: dict[str, str], proj: Path) -> None:
    places = places_for(proj, env)
    engine.install(find_agent("codex"), "project", places, command())
    data = tomllib.loads((proj / ".codex/config.toml").read_text())
    entry = data["mcp_servers"]["toon-memory"]
    assert entry["command"] == "toon-memory" and entry["args"] == ["mcp"]
    assert "mcpServers" not in data


def test_opencode_gets_a_command_array_and_no_hooks_key(env: dict[str, str], proj: Path) -> None:
    places = places_for(proj, env)
    engine.install(find_agent("opencode"), "project", places, command())
    data = json.loads((proj / "opencode.json").read_text())
    assert set(data) == {"mcp"}
    assert data["mcp"]["toon-memory"]["type"] == "local"
    assert data["mcp"]["toon-memory"]["command"] == ["toon-memory", "mcp"]
    plugin = (proj / ".opencode/plugins/toon-memory.ts").read_text()
    assert "session.created" in plugin and "tool.execute.after" in plugin


def test_hooks_run_our_hook_commands(env: dict[str, str], proj: Path) -> None:
    places = places_for(proj, env)
    for name in ("claude", "codex", "gemini", "antigravity"):
        assert engine.install(find_agent(name), "project", places, command()).ok
    claude = json.loads((proj / ".claude/settings.json").read_text())["hooks"]
    assert claude["SessionStart"][0]["hooks"][0]["command"].endswith(
        "hook session-start --agent claude"
    )
    assert claude["PostToolUse"][0]["hooks"][0]["command"].endswith("hook post-tool --agent claude")
    assert claude["Stop"][0]["hooks"][0]["command"].endswith("hook stop --agent claude")
    codex = json.loads((proj / ".codex/hooks.json").read_text())
    assert set(codex) == {"hooks"}
    gemini = json.loads((proj / ".gemini/settings.json").read_text())
    assert set(gemini["hooks"]) == {"SessionStart", "AfterTool", "SessionEnd"}
    assert "toon-memory" in gemini["mcpServers"]
    agy = json.loads((proj / ".agents/hooks.json").read_text())["toon-memory"]
    assert agy["PreInvocation"][0]["command"].endswith("hook session-start --agent antigravity")


def test_hooks_are_appended_beside_the_users_own(env: dict[str, str], proj: Path) -> None:
    places = places_for(proj, env)
    settings, original = users_claude_settings(proj)
    engine.install(find_agent("claude"), "project", places, command())
    stop = json.loads(settings.read_text())["hooks"]["Stop"]
    assert [g["hooks"][0]["command"].split()[-3:] for g in stop] == [
        ["say", "done"],
        ["stop", "--agent", "claude"],
    ]
    engine.uninstall(find_agent("claude"), "project", places)
    assert settings.read_text() == original


def test_a_changed_program_path_is_rewritten_in_place(env: dict[str, str], proj: Path) -> None:
    from toon_memory.adapters.installer.command import ServerCommand

    places = places_for(proj, env)
    agent = find_agent("cursor")
    engine.install(agent, "user", places, ServerCommand("/old/bin/toon-memory"))
    report = engine.install(agent, "user", places, command())
    assert any(c.action == "updated" for c in report.changes)
    user_file = Path(env["HOME"]) / ".cursor/mcp.json"
    entry = json.loads(user_file.read_text())["mcpServers"]["toon-memory"]
    assert entry["command"] == command().program


def test_json5_keeps_unquoted_keys_and_comments(env: dict[str, str], proj: Path) -> None:
    places = places_for(proj, env)
    path = Path(env["HOME"]) / ".openclaw/openclaw.json"
    path.parent.mkdir(parents=True)
    path.write_text("{\n  // gateway\n  gateway: {port: 18789},\n}\n")
    engine.install(find_agent("openclaw"), "user", places, command())
    text = path.read_text()
    assert "// gateway" in text and "gateway: {port: 18789}," in text
    assert parse(text, "json5").root is not None
