"""The real agent programs (pinned in ``real_agents.txt``, installed by ``.ci/run`` with npm):
after ``toon-memory init local`` in a fresh HOME and project, each agent's own ``mcp list``
agrees with ``toon-memory status``: waiting while the agent's trust step is missing,
connected (Codex, Copilot: listed and enabled) once the step init printed is taken. Qwen
Code also runs a real session against a stand-in model on 127.0.0.1 that asks for one
``memory_remember`` call, and the entry lands in data.toon.

Skips with the reason when npm's folder (``$TOON_MEMORY_AGENTS_DIR``, default
``~/.cache/toon-memory-agents``) lacks an agent or holds another version than the pin.
Every agent runs in its own process group with a timeout; the group is killed at the end.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest
from tests.adapters.installer.helpers import BIN, run_cli
from tests.adapters.installer.standin_model import StandIn

PINS = Path(__file__).with_name("real_agents.txt")
FOLDER = Path(os.environ.get("TOON_MEMORY_AGENTS_DIR") or Path.home() / ".cache/toon-memory-agents")


@dataclass(frozen=True)
class Pin:
    agent: str
    package: str
    version: str
    program: str


def _pins() -> dict[str, Pin]:
    lines = [line.split() for line in PINS.read_text().splitlines() if line and line[0] != "#"]
    return {parts[0]: Pin(*parts) for parts in lines}


def _program(pin: Pin) -> Path:
    manifest = FOLDER / "node_modules" / pin.package / "package.json"
    program = FOLDER / "node_modules/.bin" / pin.program
    if not manifest.is_file() or not program.exists():
        pytest.skip(f"{pin.package} is not installed in {FOLDER} (.ci/run installs it with npm)")
    found = json.loads(manifest.read_text()).get("version")
    if found != pin.version:
        pytest.skip(f"{pin.package}: pinned {pin.version}, found {found} in {FOLDER}")
    return program


def _run(argv: list[str], cwd: Path, env: dict[str, str], timeout: float = 90) -> str:
    """Run an agent in its own process group; its output (stdout + stderr), ANSI removed."""
    proc = subprocess.Popen(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            start_new_session=True)  # fmt: skip
    try:
        out, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        out = f"(timed out after {timeout} s)"
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    return re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", out or "")


def _grant(agent: str, proj: Path, home: Path) -> None:
    """The step ``init`` tells the user to take, done the way the agent records it."""
    if agent == "claude":
        (home / ".claude.json").write_text(
            json.dumps({"projects": {str(proj): {"hasTrustDialogAccepted": True}}})
        )
        (proj / ".claude/settings.local.json").write_text(
            json.dumps({"enabledMcpjsonServers": ["toon-memory"]})
        )
    elif agent == "codex":
        (home / ".codex").mkdir(exist_ok=True)
        (home / ".codex/config.toml").write_text(f'[projects."{proj}"]\ntrust_level = "trusted"\n')
    elif agent == "gemini":
        (home / ".gemini").mkdir(exist_ok=True)
        (home / ".gemini/trustedFolders.json").write_text(json.dumps({str(proj): "TRUST_FOLDER"}))
    elif agent == "copilot-cli":
        (home / ".copilot").mkdir(exist_ok=True)
        (home / ".copilot/config.json").write_text(json.dumps({"trusted_folders": [str(proj)]}))


GATED = {"claude": "Pending approval", "gemini": "Disabled", "codex": None, "copilot-cli": None}
CONNECTED = {"claude": "Connected", "codex": "enabled", "gemini": "Connected",
             "qwen": "Connected", "opencode": "connected", "kilo": "connected",
             "copilot-cli": "toon-memory (local)"}  # fmt: skip


def _agent_env(env: dict[str, str], program: Path) -> dict[str, str]:
    full = {k: v for k, v in os.environ.items() if not k.startswith("TOON_MEMORY_")}
    full.update(env)
    full["PATH"] = os.pathsep.join([BIN, str(program.parent), os.environ.get("PATH", "")])
    full.update({"NO_COLOR": "1", "CI": "1", "DISABLE_AUTOUPDATER": "1"})
    return full


@pytest.mark.parametrize("agent", sorted(CONNECTED))
def test_the_agent_lists_toon_memory_as_status_says(
    agent: str, env: dict[str, str], proj: Path
) -> None:
    program = _program(_pins()[agent])
    home = Path(env["HOME"])
    agent_env = _agent_env(env, program)
    done = run_cli("init", "local", "--agents", agent, "--yes", cwd=proj, env=agent_env)
    assert done.returncode == 0, done.stderr
    if agent in GATED:
        status = run_cli("status", "--no-probe", cwd=proj, env=agent_env).stdout
        assert "MCP entry: installed; written, waiting for" in status, status
        listed = _run([str(program), "mcp", "list"], proj, agent_env)
        gated = GATED[agent]
        assert (gated in listed) if gated else ("toon-memory" not in listed), listed
        _grant(agent, proj, home)
    status = run_cli("status", "--no-probe", cwd=proj, env=agent_env).stdout
    assert "MCP entry: installed" in status, status
    assert not re.search(r"MCP entry: installed; written, waiting for (?!hooks:)", status), status
    listed = _run([str(program), "mcp", "list"], proj, agent_env)
    for _ in range(2):  # a busy machine: the server may miss the agent's connect deadline
        if CONNECTED[agent] in listed:
            break
        listed = _run([str(program), "mcp", "list"], proj, agent_env)
    line = next((x for x in listed.splitlines() if "toon-memory" in x), "")
    assert CONNECTED[agent] in listed and line, listed


def test_qwen_calls_memory_remember_through_a_stand_in_model(
    env: dict[str, str], proj: Path
) -> None:
    program = _program(_pins()["qwen"])
    agent_env = _agent_env(env, program)
    assert run_cli("init", "local", "--agents", "qwen", "--yes", cwd=proj, env=agent_env).returncode == 0
    with StandIn() as model:
        out = _run([str(program), "--auth-type", "openai", "--openai-api-key", "stand-in",
                    "--openai-base-url", model.url, "-m", "stand-in", "--yolo",
                    "Remember the decision we took."], proj, agent_env, timeout=150)  # fmt: skip
        assert model.requests, out
    names = [t.get("function", {}).get("name") for t in model.requests[0].get("tools") or []]
    data_file = proj / ".toon-memory/memory/data.toon"
    data = data_file.read_text() if data_file.exists() else ""
    assert "standin-model-call" in data, (out, names, len(model.requests))
