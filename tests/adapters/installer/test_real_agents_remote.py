"""The real agent programs after ``init --server``: each reaches a real team server.

A real ``toon-memory mcp --http`` runs on 127.0.0.1 with a token; ``init local --server
URL --token-env TEAM_MEMORY_TOKEN`` writes each agent's remote entry (Kilo: ``init
global``, as it ignores such a project entry); the agent's own
``mcp list`` then connects to the server with the token it read from the variable
(Claude Code, Gemini, Qwen, OpenCode, Kilo), or lists the entry as an enabled HTTP
server with its URL (Codex: with the bearer variable; Copilot CLI: ``mcp get``, which
does not connect). With a wrong token in the variable the connecting agents do not
connect: the header really comes from the variable. Then a real Claude Code session
(the stand-in model on 127.0.0.1) is primed by the session-start hook with an entry
remembered on the server through the CLI, and its ``memory_remember`` call lands in the
server's memory, not in the project.

Skips with the reason when an agent program is absent (see ``test_real_agents.py``).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from tests.adapters.cli.teamserver import TOKEN, TeamServer, team_server
from tests.adapters.installer.helpers import run_cli
from tests.adapters.installer.standin_model import ARGS, StandIn
from tests.adapters.installer.test_real_agents import (
    SESSIONS,
    _agent_env,
    _calls,
    _grant,
    _pins,
    _program,
    _run,
)

VAR = "TEAM_MEMORY_TOKEN"
#: What the agent's list says of a server it reached (None: it lists without connecting).
REACHED = {"claude": "Connected", "gemini": "Connected", "qwen": "Connected",
           "opencode": "connected", "kilo": "connected", "codex": None, "copilot-cli": None}  # fmt: skip


@pytest.fixture
def server(tmp_path: Path) -> TeamServer:  # type: ignore[misc]
    with team_server(tmp_path) as running:
        yield running


def _listed(agent: str, program: Path, proj: Path, env: dict[str, str]) -> str:
    argv = [str(program), "mcp", "get", "toon-memory"] if agent == "copilot-cli" else [
        str(program), "mcp", "list"]  # fmt: skip
    out = _run(argv, proj, env)
    for _ in range(2 if agent == "qwen" else 0):  # Qwen's list gives a server 5 s, fixed
        if (REACHED[agent] or "") in out and "Disconnected" not in out:
            break
        out = _run(argv, proj, env)
    return out


def _line(listed: str) -> str:
    return next((x for x in listed.splitlines() if "toon-memory" in x), "")


@pytest.mark.parametrize("agent", sorted(REACHED))
def test_the_agent_reaches_the_team_server_with_the_token_from_the_variable(
    agent: str, env: dict[str, str], proj: Path, server: TeamServer
) -> None:
    program = _program(_pins()[agent])
    agent_env = {**_agent_env(env, program), VAR: TOKEN}
    scope = "global" if agent == "kilo" else "local"  # Kilo: user scope only (kilo.py)
    done = run_cli("init", scope, "--agents", agent, "--yes", "--server", server.url,
                   "--token-env", VAR, cwd=proj, env=agent_env)  # fmt: skip
    assert done.returncode == 0, done.stderr
    _grant(agent, proj, Path(env["HOME"]))
    listed = _listed(agent, program, proj, agent_env)
    reached = REACHED[agent]
    if agent == "codex":
        assert re.search(rf"toon-memory\s+{re.escape(server.url)}\s+{VAR}\s+enabled", listed), (
            listed
        )
    elif agent == "copilot-cli":
        assert "Type: http" in listed and f"URL: {server.url}" in listed, listed
        assert TOKEN not in listed
    else:
        assert reached is not None
        line = _line(listed)
        assert server.url in listed and reached in line and "Disconnected" not in line, listed
        wrong = _listed(agent, program, proj, {**agent_env, VAR: "wrong-token"})
        assert reached not in _line(wrong) or "Disconnected" in _line(wrong), wrong


def test_a_claude_session_is_primed_by_and_remembers_on_the_team_server(
    env: dict[str, str], proj: Path, server: TeamServer
) -> None:
    program = _program(_pins()["claude"])
    home = Path(env["HOME"])
    agent_env = {**_agent_env(env, program), VAR: TOKEN}
    seeded = run_cli("remember", "-c", "decision", "-k", "team-primer-seed", "-m",
                     "The team memory lives on the shared server", "--server", server.url,
                     "--token-env", VAR, cwd=proj, env=agent_env)  # fmt: skip
    assert seeded.returncode == 0, seeded.stderr
    done = run_cli("init", "local", "--agents", "claude", "--yes", "--server", server.url,
                   "--token-env", VAR, cwd=proj, env=agent_env)  # fmt: skip
    assert done.returncode == 0, done.stderr
    _grant("claude", proj, home)
    with StandIn() as model:
        argv, extra = SESSIONS["claude"](str(program), model, home)
        out = _run(argv, proj, {**agent_env, **extra}, timeout=150)
    calls = _calls(model)
    assert any(c and c[-1].endswith("memory_remember") for c in calls), (out, calls)
    assert ARGS["key"] in server.data and ARGS["content"] in server.data, out
    assert not (proj / ".toon-memory").exists()
    prompts = json.dumps([body for _, body in model.requests])
    assert "The team memory lives on the shared server" in prompts, out
