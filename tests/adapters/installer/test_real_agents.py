"""The real agent programs (pinned in ``real_agents.txt``, installed by ``.ci/run`` with npm):
after ``toon-memory init local`` in a fresh HOME and project, each agent's own ``mcp list``
agrees with ``toon-memory status``: waiting while the agent's trust step is missing,
connected (Codex, Copilot: listed and enabled) once the step init printed is taken. Then,
in both scopes, each agent runs one real non-interactive session against the stand-in
model on 127.0.0.1 (``standin_model.py``, in the agent's own wire protocol) that asks for
one ``memory_remember`` call, and the entry lands in the project's data.toon.

Skips with the reason when npm's folder (``$TOON_MEMORY_AGENTS_DIR``, default
``~/.cache/toon-memory-agents``) lacks an agent or holds another version than the pin.
Every agent runs in its own process group with a timeout; the group is killed at the end.
Nothing leaves 127.0.0.1: the agents' own API keys are dropped from the environment,
telemetry, update checks, model-list fetches and npm installs are off (``QUIET``), and
every model URL points at the stand-in.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import tomlkit
from tests.adapters.installer.helpers import BIN, run_cli
from tests.adapters.installer.standin_model import ARGS, StandIn, protocol

PINS = Path(__file__).with_name("real_agents.txt")
FOLDER = Path(os.environ.get("TOON_MEMORY_AGENTS_DIR") or Path.home() / ".cache/toon-memory-agents")
PROMPT = "Remember the decision we took."
#: Inherited variables that would hand an agent a real account, endpoint or home.
DROPPED = ("ANTHROPIC_", "CLAUDE_", "OPENAI_", "CODEX_", "GEMINI_", "GOOGLE_", "QWEN_",
           "DASHSCOPE_", "OPENROUTER_", "OPENCODE_", "KILO_", "COPILOT_", "GITHUB_TOKEN",
           "GH_TOKEN", "TOON_MEMORY_", "npm_config_", "NPM_CONFIG_")  # fmt: skip
#: No telemetry, update checks, model-list fetches or npm installs (OpenCode and Kilo
#: install their plugin package at start: npm may only read its empty offline cache).
QUIET = {
    "NO_COLOR": "1", "CI": "1", "DISABLE_AUTOUPDATER": "1", "DISABLE_TELEMETRY": "1",
    "DISABLE_ERROR_REPORTING": "1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
    **{f"{tool}_{flag}": "1" for tool in ("OPENCODE", "KILO")
       for flag in ("DISABLE_AUTOUPDATE", "DISABLE_MODELS_FETCH", "DISABLE_DEFAULT_PLUGINS",
                    "DISABLE_SHARE", "DISABLE_LSP_DOWNLOAD")},
    "KILO_TELEMETRY_LEVEL": "off", "KILO_DISABLE_SESSION_INGEST": "1", "KILO_DISABLE_PRESENCE": "1",
    "COPILOT_OFFLINE": "true", "COPILOT_AUTO_UPDATE": "false",
    "npm_config_offline": "true", "npm_config_registry": "http://127.0.0.1:9/",
}  # fmt: skip


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
    proc = subprocess.Popen(argv, cwd=cwd, env={**env, "PWD": str(cwd)}, stdin=subprocess.DEVNULL,
                            text=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
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


def _merge_json(path: Path, data: dict[str, Any]) -> None:
    """Write ``data`` into the JSON file at ``path``, one level of tables deep."""
    path.parent.mkdir(parents=True, exist_ok=True)
    found = json.loads(path.read_text()) if path.exists() else {}
    for key, value in data.items():
        old = found.get(key)
        found[key] = (
            {**old, **value} if isinstance(old, dict) and isinstance(value, dict) else value
        )
    path.write_text(json.dumps(found))


def _grant(agent: str, proj: Path, home: Path) -> None:
    """The step ``init`` tells the user to take, done the way the agent records it."""
    if agent == "claude":
        _merge_json(
            home / ".claude.json", {"projects": {str(proj): {"hasTrustDialogAccepted": True}}}
        )
        _merge_json(
            proj / ".claude/settings.local.json", {"enabledMcpjsonServers": ["toon-memory"]}
        )
    elif agent == "codex":
        config = home / ".codex/config.toml"
        config.parent.mkdir(exist_ok=True)
        old = config.read_text() if config.exists() else ""
        config.write_text(f'{old}\n[projects."{proj}"]\ntrust_level = "trusted"\n')
    elif agent == "gemini":
        _merge_json(home / ".gemini/trustedFolders.json", {str(proj): "TRUST_FOLDER"})
    elif agent == "copilot-cli":
        _merge_json(home / ".copilot/config.json", {"trusted_folders": [str(proj)]})


#: status names a step the agent needs before it starts our server (hook trust aside).
WAITING = r"MCP entry: installed; written, waiting for (?!hooks:)"
GATED = {"claude": "Pending approval", "gemini": "Disabled", "codex": None, "copilot-cli": None}
CONNECTED = {"claude": "Connected", "codex": "enabled", "gemini": "Connected",
             "qwen": "Connected", "opencode": "connected", "kilo": "connected",
             "copilot-cli": "toon-memory (local)"}  # fmt: skip


def _agent_env(env: dict[str, str], program: Path) -> dict[str, str]:
    full = {k: v for k, v in os.environ.items() if not k.startswith(DROPPED)}
    full.update(env)
    full["PATH"] = os.pathsep.join([BIN, str(program.parent), os.environ.get("PATH", "")])
    full.update(QUIET)
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
    assert not re.search(WAITING, status), status
    listed = _run([str(program), "mcp", "list"], proj, agent_env)
    for _ in range(2 if agent == "qwen" else 0):  # Qwen's list gives a server 5 s, fixed
        if CONNECTED[agent] in listed:
            break
        listed = _run([str(program), "mcp", "list"], proj, agent_env)
    line = next((x for x in listed.splitlines() if "toon-memory" in x), "")
    assert CONNECTED[agent] in listed and line, listed


def test_gemini_lists_a_server_that_starts_slower_than_its_5_s_list_deadline(
    env: dict[str, str], proj: Path, tmp_path: Path
) -> None:
    """``gemini mcp list`` gives a server 5 s unless its entry names ``timeout`` (init
    writes one); a ``toon-memory`` that takes 6 s to start still lists as connected."""
    program = _program(_pins()["gemini"])
    agent_env = _agent_env(env, program)
    assert (
        run_cli("init", "local", "--agents", "gemini", "--yes", cwd=proj, env=agent_env).returncode
        == 0
    )
    _grant("gemini", proj, Path(env["HOME"]))
    slow = tmp_path / "slow-bin"
    slow.mkdir()
    shim = slow / "toon-memory"
    shim.write_text(f'#!/bin/sh\nsleep 6\nexec "{BIN}/toon-memory" "$@"\n')
    shim.chmod(0o755)
    listed = _run([str(program), "mcp", "list"], proj,
                  {**agent_env, "PATH": f"{slow}{os.pathsep}{agent_env['PATH']}"})  # fmt: skip
    line = next((x for x in listed.splitlines() if "toon-memory" in x), "")
    assert "Connected" in line and "Disconnected" not in line, listed


def _codex_rpc(program: Path, cwd: Path, env: dict[str, str], *calls: tuple[str, Any]) -> list[Any]:
    """Ask Codex's own app-server (JSON-RPC lines on stdio): each call's result, in order."""
    proc = subprocess.Popen([str(program), "app-server"], cwd=cwd, env=env, text=True,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, start_new_session=True)  # fmt: skip
    assert proc.stdin is not None and proc.stdout is not None
    watchdog = threading.Timer(60, os.killpg, (proc.pid, signal.SIGKILL))
    watchdog.start()
    hello = ("initialize", {"clientInfo": {"name": "toon-memory-tests", "version": "1"}})
    results = []
    try:
        for number, (method, params) in enumerate([hello, *calls]):
            proc.stdin.write(json.dumps({"id": number, "method": method, "params": params}) + "\n")
            proc.stdin.flush()
            reply: dict[str, Any] = {}
            while reply.get("id") != number:
                line = proc.stdout.readline()
                assert line, f"codex app-server closed before answering {method}"
                reply = json.loads(line)
            assert "result" in reply, reply
            results.append(reply["result"])
            if number == 0:
                proc.stdin.write(json.dumps({"method": "initialized"}) + "\n")
    finally:
        watchdog.cancel()
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        proc.stdin.close()
        proc.stdout.close()
    return results[1:]


def _our_codex_hooks(program: Path, proj: Path, env: dict[str, str]) -> list[dict[str, Any]]:
    (listed,) = _codex_rpc(program, proj, env, ("hooks/list", {"cwd": str(proj)}))
    return [h for folder in listed["data"] for h in folder["hooks"]
            if "toon-memory hook " in h["command"]]  # fmt: skip


@pytest.mark.parametrize("scope", ["local", "global"])
def test_codex_hook_trust_as_codex_writes_it_is_recognised_and_uninstall_takes_it_back(
    scope: str, env: dict[str, str], proj: Path
) -> None:
    """Codex itself lists our hooks (their trust keys and hashes) and writes the trust
    the way its /hooks does; status sees it, uninstall leaves the user's config as it was."""
    program = _program(_pins()["codex"])
    agent_env = _agent_env(env, program)
    config = Path(env["HOME"]) / ".codex/config.toml"
    config.parent.mkdir()
    original = f'model = "o3"\n\n[projects."{proj}"]\ntrust_level = "trusted"\n'
    config.write_text(original)
    assert (
        run_cli("init", scope, "--agents", "codex", "--yes", cwd=proj, env=agent_env).returncode
        == 0
    )
    hooks = _our_codex_hooks(program, proj, agent_env)
    assert len(hooks) == 3 and {h["trustStatus"] for h in hooks} == {"untrusted"}, hooks
    assert "hook trust" in run_cli("status", "--no-probe", cwd=proj, env=agent_env).stdout
    trust = {h["key"]: {"trusted_hash": h["currentHash"]} for h in hooks}
    _codex_rpc(program, proj, agent_env, ("config/value/write",
               {"keyPath": "hooks.state", "value": trust, "mergeStrategy": "upsert"}))  # fmt: skip
    assert {h["trustStatus"] for h in _our_codex_hooks(program, proj, agent_env)} == {"trusted"}
    assert set(tomlkit.parse(config.read_text()).unwrap()["hooks"]["state"]) == set(trust)
    assert "hook trust" not in run_cli("status", "--no-probe", cwd=proj, env=agent_env).stdout
    gone = run_cli("uninstall", "--agents", "codex", "--yes", cwd=proj, env=agent_env)
    assert gone.returncode == 0, gone.stderr
    assert config.read_text() == original, config.read_text()
    assert _our_codex_hooks(program, proj, agent_env) == []


Session = tuple[list[str], dict[str, str]]


def _claude(program: str, model: StandIn, home: Path) -> Session:
    """``claude -p`` on the Anthropic Messages API; only our server's tools pre-allowed (no
    bypassPermissions: Claude Code refuses it as root). MCP tools sit behind ToolSearch."""
    argv = [
        program,
        "-p",
        "--model",
        "stand-in",
        "--allowedTools",
        "mcp__toon-memory",
        "--",
        PROMPT,
    ]
    return argv, {"ANTHROPIC_BASE_URL": model.root, "ANTHROPIC_API_KEY": "stand-in"}


def _codex(program: str, model: StandIn, home: Path) -> Session:
    """``codex exec`` on the Responses API through a ``-c`` model provider. The model is
    one of Codex's catalogue (gpt-5.5): Codex always defers MCP tools behind ``tool_search``,
    which it offers only to a model whose metadata says it supports it. ``required`` makes
    exec wait for our server: exec does not wait for an optional one, and the first turn's
    tool_search finds none of its tools (``mcp_optional_startup_grace_ms`` also helps)."""
    provider = (
        f'{{name="stand-in", base_url="{model.url}", wire_api="responses", env_key="STANDIN_KEY"}}'
    )
    overrides = ["model_provider=standin", f"model_providers.standin={provider}",
                 "mcp_servers.toon-memory.required=true", "analytics.enabled=false",
                 "check_for_update_on_startup=false", "features.plugins=false"]  # fmt: skip
    argv = [program, "exec", "--dangerously-bypass-approvals-and-sandbox", "--skip-git-repo-check",
            "-m", "gpt-5.5", *(arg for o in overrides for arg in ("-c", o)), PROMPT]  # fmt: skip
    return argv, {"STANDIN_KEY": "stand-in"}


def _gemini(program: str, model: StandIn, home: Path) -> Session:
    """``gemini -p --yolo`` on the GenAI API: an API key auth chosen in the user settings
    (the base URL alone selects "gateway", which non-interactive mode rejects)."""
    _merge_json(home / ".gemini/settings.json", {
        "security": {"auth": {"selectedType": "gemini-api-key"}},
        "privacy": {"usageStatisticsEnabled": False},
        "general": {"enableAutoUpdate": False, "enableAutoUpdateNotification": False}})  # fmt: skip
    argv = [program, "-p", PROMPT, "--yolo", "-m", "stand-in"]
    return argv, {"GEMINI_API_KEY": "stand-in", "GOOGLE_GEMINI_BASE_URL": model.root}


def _opencode_like(variable: str) -> Callable[[str, StandIn, Path], Session]:
    """``opencode run`` / ``kilo run``: an OpenAI-compatible provider in ``<X>_CONFIG_CONTENT``
    (merged over the files init wrote), the only provider enabled."""

    def session(program: str, model: StandIn, home: Path) -> Session:
        provider = {"npm": "@ai-sdk/openai-compatible", "name": "stand-in",
                    "options": {"baseURL": model.url, "apiKey": "stand-in"},
                    "models": {"stand-in": {"name": "stand-in", "tool_call": True}}}  # fmt: skip
        config = {"provider": {"standin": provider}, "model": "standin/stand-in",
                  "enabled_providers": ["standin"], "autoupdate": False, "share": "disabled"}  # fmt: skip
        return [program, "run", "-m", "standin/stand-in", PROMPT], {variable: json.dumps(config)}

    return session


def _qwen(program: str, model: StandIn, home: Path) -> Session:
    """``qwen --yolo`` on chat completions; usage statistics off (else it resolves an
    Aliyun RUM host at start)."""
    _merge_json(home / ".qwen/settings.json", {"privacy": {"usageStatisticsEnabled": False}})
    argv = [program, "--auth-type", "openai", "--openai-api-key", "stand-in", "--openai-base-url",
            model.url, "-m", "stand-in", "--yolo", PROMPT]  # fmt: skip
    return argv, {}


def _copilot(program: str, model: StandIn, home: Path) -> Session:
    """``copilot -p`` with its own-key provider (``COPILOT_PROVIDER_*``, chat completions)."""
    env = {"COPILOT_PROVIDER_BASE_URL": model.url, "COPILOT_PROVIDER_TYPE": "openai",
           "COPILOT_PROVIDER_API_KEY": "stand-in", "COPILOT_PROVIDER_MODEL_ID": "stand-in"}  # fmt: skip
    return [program, "-p", PROMPT, "--allow-tool", "toon-memory", "--model", "stand-in"], env


SESSIONS: dict[str, Callable[[str, StandIn, Path], Session]] = {
    "claude": _claude, "codex": _codex, "gemini": _gemini, "qwen": _qwen,
    "opencode": _opencode_like("OPENCODE_CONFIG_CONTENT"),
    "kilo": _opencode_like("KILO_CONFIG_CONTENT"), "copilot-cli": _copilot,
}  # fmt: skip


def _calls(model: StandIn) -> list[list[str]]:
    """Per request the model received: the tools already called in that conversation."""
    return [speaks.turn(body).called for path, body in model.requests
            if (speaks := protocol(path)) is not None]  # fmt: skip


@pytest.mark.parametrize("scope", ["local", "global"])
@pytest.mark.parametrize("agent", sorted(SESSIONS))
def test_a_real_session_calls_memory_remember_through_the_stand_in_model(
    agent: str, scope: str, env: dict[str, str], proj: Path
) -> None:
    program = _program(_pins()[agent])
    home = Path(env["HOME"])
    agent_env = _agent_env(env, program)
    done = run_cli("init", scope, "--agents", agent, "--yes", cwd=proj, env=agent_env)
    assert done.returncode == 0, done.stderr
    status = run_cli("status", "--no-probe", cwd=proj, env=agent_env).stdout
    if re.search(WAITING, status):  # only the step status names (README's last column)
        _grant(agent, proj, home)
    with StandIn() as model:
        argv, extra = SESSIONS[agent](str(program), model, home)
        out = _run(argv, proj, {**agent_env, **extra}, timeout=150)
    calls = _calls(model)
    assert any(c and c[-1].endswith("memory_remember") for c in calls), (out, calls)
    data_file = proj / ".toon-memory/memory/data.toon"
    data = data_file.read_text() if data_file.exists() else ""
    assert ARGS["key"] in data and ARGS["content"] in data, (out, calls)
