"""Hook lines name their agent (``hook <action> --agent <id>``); lines written before that (no
``--agent``) are still ours: a re-install rewrites them in place, uninstall takes them out and
gives the user's file back byte for byte."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from tests.adapters.installer.helpers import command, places_for, users_claude_settings

from toon_memory.adapters.installer import engine
from toon_memory.adapters.installer.catalog import AGENTS, find_agent
from toon_memory.adapters.installer.command import ServerCommand, hook_agent, is_our_hook

HOOKED = ("claude", "codex", "gemini", "antigravity")
LINE = re.compile(r"hook (session-start|post-tool|stop)\b([^\"\n]*)")


def test_every_written_hook_line_names_its_agent(env: dict[str, str], proj: Path) -> None:
    places = places_for(proj, env)
    seen = 0
    for agent in AGENTS:
        for scope in agent.scopes:
            report = engine.install(agent, scope, places, command())
            assert report.ok, report.errors
            for change in report.changes:
                if not change.path.is_file():
                    continue
                for _action, rest in LINE.findall(change.path.read_text(encoding="utf-8")):
                    assert rest.split()[:2] == ["--agent", agent.id], (agent.id, change.path)
                    seen += 1
    assert seen >= 3 * len(HOOKED)
    plugin = (proj / ".opencode/plugins/toon-memory.ts").read_text()
    assert "hook ${action} --agent opencode" in plugin


def _old_style(path: Path, agent: str) -> None:
    """The file as the installer wrote it before hook lines named their agent."""
    path.write_text(path.read_text().replace(f" --agent {agent}", ""))


@pytest.mark.parametrize("name", HOOKED)
def test_old_lines_are_ours_for_uninstall_and_upgrade(
    name: str, env: dict[str, str], proj: Path
) -> None:
    places = places_for(proj, env)
    agent = find_agent(name)
    report = engine.install(agent, "project", places, command())
    files = {c.path for c in report.changes if c.path.is_file() and "--agent" in c.path.read_text()}
    assert files
    for path in files:
        _old_style(path, name)
        assert "--agent" not in path.read_text()
    engine.install(agent, "project", places, command())  # the upgrade: rewritten in place
    for path in files:
        text = path.read_text()
        assert text.count(f"--agent {name}") == len(LINE.findall(text)) > 0
        _old_style(path, name)
    engine.uninstall(agent, "project", places)
    for path in files:
        assert not path.exists() or "hook " not in path.read_text()


def test_uninstall_of_an_old_line_gives_the_users_bytes_back(env: dict[str, str],
                                                             proj: Path) -> None:  # fmt: skip
    places = places_for(proj, env)
    settings, original = users_claude_settings(proj)
    engine.install(find_agent("claude"), "project", places, command())
    _old_style(settings, "claude")
    stop = json.loads(settings.read_text())["hooks"]["Stop"]
    assert stop[1]["hooks"][0]["command"].endswith("toon-memory hook stop")
    engine.uninstall(find_agent("claude"), "project", places)
    assert settings.read_text() == original


@pytest.mark.parametrize(
    ("line", "action", "agent"),
    [("/usr/bin/toon-memory hook stop", "stop", ""),
     ("/usr/bin/toon-memory hook stop --agent codex", "stop", "codex"),
     ("'/opt/my tools/toon-memory' hook post-tool --agent gemini", "post-tool", "gemini"),
     ('"C:\\\\Py\\\\toon-memory.exe" hook session-start --agent=claude', "session-start", "claude"),
     ("/usr/bin/python3 -m toon_memory hook session-start --agent kiro", "session-start", "kiro")],
)  # fmt: skip
def test_is_our_hook_and_hook_agent_read_both_shapes(line: str, action: str, agent: str) -> None:
    assert is_our_hook(line) and is_our_hook(line, action)
    assert not is_our_hook(line, "post-tool" if action != "post-tool" else "stop")
    assert hook_agent(line) == agent


def test_lines_that_are_not_ours() -> None:
    for line in ("say done", "echo toon-memory hooks", "toon-memory mcp", 42, None):
        assert not is_our_hook(line) and hook_agent(line) is None


def test_hook_line_round_trips_and_checks_the_agent() -> None:
    program = ServerCommand("/opt/my tools/toon-memory")
    for windows in (False, True):
        line = program.hook_line("post-tool", "claude", windows)
        assert is_our_hook(line, "post-tool") and hook_agent(line) == "claude"
    with pytest.raises(ValueError):
        program.hook_line("stop", "Claude Code")
    with pytest.raises(ValueError):
        program.hook_line("start", "claude")
