"""Issue 21 through the real CLI: what each agent still needs, stale backups, copilot-cli,
Continue's ``cn``, a teammate's clone, and Codex's hook trust taken back on uninstall."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from tests.adapters.installer.helpers import run_cli

from toon_memory.adapters.installer.files import backup_path


def test_gemini_says_it_waits_for_folder_trust_until_the_folder_is_trusted(
    env: dict[str, str], proj: Path
) -> None:
    for scope in ("local", "global"):
        done = run_cli("init", scope, "--agents", "gemini", "--yes", cwd=proj, env=env)
        assert done.returncode == 0, done.stderr
        assert "trustedFolders.json" in done.stdout and "--skip-trust" in done.stdout
    shown = run_cli("status", "--no-probe", cwd=proj, env=env).stdout
    assert shown.count("written, waiting for Gemini CLI's folder trust") == 2
    trusted = Path(env["HOME"]) / ".gemini/trustedFolders.json"
    trusted.write_text(json.dumps({str(proj / "sub"): "TRUST_PARENT"}))
    shown = run_cli("status", "--no-probe", cwd=proj, env=env).stdout
    assert "waiting" not in shown
    trusted.write_text(json.dumps({str(proj): "DO_NOT_TRUST"}))
    assert "waiting for Gemini" in run_cli("status", "--no-probe", cwd=proj, env=env).stdout


def test_codex_waits_for_project_and_hook_trust_and_uninstall_forgets_hook_trust(
    env: dict[str, str], proj: Path
) -> None:
    done = run_cli("init", "local", "--agents", "codex", "--yes", cwd=proj, env=env)
    assert "/hooks" in done.stdout
    shown = run_cli("status", "--no-probe", cwd=proj, env=env).stdout
    assert "waiting for Codex's trust of this project" in shown and "hook trust" in shown
    hooks = proj / ".codex/hooks.json"
    config = Path(env["HOME"]) / ".codex/config.toml"
    user_text = 'model = "o3"\n\n[projects."' + str(proj) + '"]\ntrust_level = "trusted"\n'
    keys = [f"{hooks}:{event}:0:0" for event in ("session_start", "post_tool_use", "stop")]
    other = '\n[hooks.state."/elsewhere/hooks.json:stop:0:0"]\ntrusted_hash = "sha256:1"\n'
    trust = "".join(f'\n[hooks.state."{key}"]\ntrusted_hash = "sha256:0"\n' for key in keys)
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(user_text + other + trust)
    assert "waiting" not in run_cli("status", "--no-probe", cwd=proj, env=env).stdout
    gone = run_cli("uninstall", "--agents", "codex", "--yes", cwd=proj, env=env)
    assert gone.returncode == 0, gone.stderr
    assert config.read_text() == user_text + other
    assert not hooks.exists()


def test_claude_project_server_waits_for_approval_and_a_rejection_is_named(
    env: dict[str, str], proj: Path
) -> None:
    assert run_cli("init", "--agents", "claude", "--yes", cwd=proj, env=env).returncode == 0
    assert "waiting for Claude Code's folder trust" in run_cli("status", cwd=proj, env=env).stdout
    state = Path(env["HOME"]) / ".claude.json"
    state.write_text(
        json.dumps({"projects": {str(proj): {"disabledMcpjsonServers": ["toon-memory"]}}})
    )
    assert "rejected it" in run_cli("status", "--no-probe", cwd=proj, env=env).stdout
    state.write_text(
        json.dumps(
            {
                "projects": {
                    str(proj): {
                        "enabledMcpjsonServers": ["toon-memory"],
                        "hasTrustDialogAccepted": True,
                    }
                }
            }
        )
    )
    assert "server answers" in run_cli("status", cwd=proj, env=env).stdout


def test_copilot_cli_is_its_own_agent_with_its_own_files(env: dict[str, str], proj: Path) -> None:
    done = run_cli("init", "local", "--agents", "copilot-cli", "--yes", cwd=proj, env=env)
    assert done.returncode == 0, done.stderr
    assert "trust question" in done.stdout
    entry = json.loads((proj / ".github/mcp.json").read_text())["mcpServers"]["toon-memory"]
    assert entry == {"type": "local", "command": "toon-memory", "args": ["mcp"], "tools": ["*"]}
    assert not (proj / ".vscode").exists() and not (proj / ".mcp.json").exists()
    assert (
        run_cli("init", "global", "--agents", "copilot", "--yes", cwd=proj, env=env).returncode == 0
    )
    user = json.loads((Path(env["HOME"]) / ".copilot/mcp-config.json").read_text())
    assert Path(user["mcpServers"]["toon-memory"]["command"]).is_absolute()


def test_continue_is_not_detected_through_cn_and_says_cn_does_not_read_it(
    env: dict[str, str], proj: Path, tmp_path: Path
) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "cn").write_text("#!/bin/sh\n")
    (bin_dir / "cn").chmod(0o755)
    found = run_cli("init", cwd=proj, env={**env, "PATH": str(bin_dir)})
    assert "Continue" not in found.stdout
    done = run_cli("init", "--agents", "continue", "--yes", cwd=proj, env=env)
    assert "the `cn` CLI does not read" in done.stdout


def test_status_flags_a_project_file_naming_a_path_that_does_not_exist(
    env: dict[str, str], proj: Path
) -> None:
    (proj / ".cursor").mkdir()
    (proj / ".cursor/mcp.json").write_text(json.dumps({"mcpServers": {"toon-memory": {
        "command": "/home/someone-else/venv/bin/toon-memory", "args": ["mcp"]}}}))  # fmt: skip
    shown = run_cli("status", cwd=proj, env=env)
    assert shown.returncode == 1
    assert (
        "names /home/someone-else/venv/bin/toon-memory, which does not exist here" in shown.stdout
    )


def test_a_teammates_clone_gets_the_same_portable_files(
    env: dict[str, str], proj: Path, tmp_path: Path
) -> None:
    agents = "claude,cursor,vscode,codex,gemini,opencode,kiro,qwen"
    assert run_cli("init", "local", "--agents", agents, "--yes", cwd=proj, env=env).returncode == 0
    clone = tmp_path / "elsewhere" / "clone"
    shutil.copytree(proj, clone, ignore=shutil.ignore_patterns(".toon-memory"))
    shown = run_cli("status", "--no-probe", cwd=clone, env=env)
    assert shown.returncode == 0, shown.stdout
    assert "does not exist here" not in shown.stdout
    for path in clone.rglob("*"):
        if path.is_file() and ".git" not in path.parts:
            assert str(proj) not in path.read_text(), path


def test_a_backup_the_agent_outdated_is_dropped_and_never_restored(
    env: dict[str, str], proj: Path
) -> None:
    settings = proj / ".qwen/settings.json"
    settings.parent.mkdir()
    settings.write_text('{"model": "a"}\n')
    assert run_cli("init", "--agents", "qwen", "--yes", cwd=proj, env=env).returncode == 0
    assert backup_path(settings).read_text() == '{"model": "a"}\n'
    data = json.loads(settings.read_text())  # the agent migrates its file on start
    settings.write_text(json.dumps({**data, "model": "b", "$version": 2}, indent=2) + "\n")
    assert run_cli("uninstall", "--yes", cwd=proj, env=env).returncode == 0
    assert json.loads(settings.read_text()) == {"model": "b", "$version": 2}
    assert not backup_path(settings).exists()
    stale = backup_path(settings)
    stale.write_text('{"model": "a"}\n')  # left by an older toon-memory
    assert run_cli("init", "--agents", "qwen", "--yes", cwd=proj, env=env).returncode == 0
    assert json.loads(stale.read_text()) == {"model": "b", "$version": 2}


def test_uninstall_names_only_agents_that_were_installed(env: dict[str, str], proj: Path) -> None:
    assert run_cli("init", "--agents", "opencode", "--yes", cwd=proj, env=env).returncode == 0
    gone = run_cli("uninstall", "--yes", cwd=proj, env=env)
    assert gone.returncode == 0, gone.stderr
    assert "OpenCode" in gone.stdout
    assert "Codex" not in gone.stdout and "Amp" not in gone.stdout and "Zed" not in gone.stdout
