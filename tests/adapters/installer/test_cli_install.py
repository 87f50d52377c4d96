"""The installer commands through the real CLI in a subprocess (``toon-memory`` as installed)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.adapters.installer.helpers import BIN, run_cli, snapshot

from toon_memory.adapters.installer.upgrade import detect_upgrade
from toon_memory.project.gitignore import MARK

MCP_JSON = '{\n  "mcpServers": {\n    "other": {\n      "command": "other-server"\n    }\n  }\n}\n'
CODEX_TOML = '# my codex settings\nmodel = "o3"  # keep\n'


def _project_with_configs(proj: Path) -> None:
    (proj / ".mcp.json").write_text(MCP_JSON)
    (proj / ".codex").mkdir()
    (proj / ".codex/config.toml").write_text(CODEX_TOML)


def test_done_means_init_all_twice_then_uninstall(
    env: dict[str, str], proj: Path, tmp_path: Path
) -> None:
    _project_with_configs(proj)
    before = snapshot(proj, Path(env["HOME"]))
    first = run_cli("init", "local", "--agents", "all", "--yes", cwd=proj, env=env)
    assert first.returncode == 0, first.stderr
    assert (proj / ".toon-memory/memory").is_dir()
    for written in (".mcp.json", ".codex/config.toml", ".codex/hooks.json", ".claude/settings.json",
                    ".cursor/mcp.json", ".vscode/mcp.json", "opencode.json", ".gemini/settings.json",
                    ".zed/settings.json", ".agents/mcp_config.json", ".kiro/settings/mcp.json",
                    ".qwen/settings.json", ".kimi-code/mcp.json", ".junie/mcp/mcp.json",
                    ".amp/settings.json", ".grok/config.toml", ".trae/mcp.json", "kilo.jsonc",
                    ".continue/mcpServers/toon-memory.yaml", ".aider.conf.yml", "AGENTS.md",
                    "CLAUDE.md", "GEMINI.md"):  # fmt: skip
        assert (proj / written).is_file(), written
    assert json.loads((proj / ".mcp.json").read_text())["mcpServers"]["other"]
    assert "# my codex settings" in (proj / ".codex/config.toml").read_text()
    assert MARK in (proj / ".gitignore").read_text()
    assert "Windsurf has no project-scope" in first.stdout
    assert (
        "server command in project files (committed: no path of this machine): "
        "toon-memory mcp  (toon-memory is on PATH)" in first.stdout
    )
    written = snapshot(proj, Path(env["HOME"]))
    in_project = {k: v for k, v in written.items() if k.startswith(str(proj))}
    assert len(in_project) >= 25
    assert not [
        k for k, v in in_project.items() if str(tmp_path).encode() in v or BIN.encode() in v
    ]
    second = run_cli("init", "local", "--agents", "all", "--yes", cwd=proj, env=env)
    assert second.returncode == 0, second.stderr
    assert snapshot(proj, Path(env["HOME"])) == written
    gone = run_cli("uninstall", "--yes", cwd=proj, env=env)
    assert gone.returncode == 0, gone.stderr
    assert "removed   .gitignore  (created by init)" in gone.stdout
    assert snapshot(proj, Path(env["HOME"])) == before


def test_init_without_agents_only_creates_the_memory(env: dict[str, str], proj: Path) -> None:
    (proj / "requirements.txt").write_text("redis==5\n")
    done = run_cli("init", cwd=proj, env={**env, "PATH": "/nonexistent"})
    assert done.returncode == 0, done.stderr
    config = json.loads((proj / ".toon-memory/memory/config.json").read_text())
    assert config["vocab"] == {"redis": ["redis"]}
    assert "No agent found" in done.stdout
    gitignore = (proj / ".gitignore").read_text()
    assert run_cli("init", cwd=proj, env={**env, "PATH": "/nonexistent"}).returncode == 0
    assert (proj / ".gitignore").read_text() == gitignore


def test_init_picks_the_detected_agents(env: dict[str, str], proj: Path) -> None:
    (proj / ".cursor").mkdir()
    done = run_cli("init", "--yes", cwd=proj, env={**env, "PATH": "/nonexistent"})
    assert done.returncode == 0, done.stderr
    assert (proj / ".cursor/mcp.json").is_file()
    assert not (proj / ".mcp.json").exists()


def test_a_broken_config_fails_the_run_but_not_the_others(env: dict[str, str], proj: Path) -> None:
    (proj / ".mcp.json").write_text('{\n  "mcpServers": {\n')
    done = run_cli("init", "--agents", "claude,cursor", "--yes", cwd=proj, env=env)
    assert done.returncode == 1
    assert f"{proj / '.mcp.json'}:3:" in done.stderr
    assert (proj / ".mcp.json").read_text() == '{\n  "mcpServers": {\n'
    assert (proj / ".cursor/mcp.json").is_file()


def test_status_reports_entries_and_a_live_server(env: dict[str, str], proj: Path) -> None:
    assert run_cli("init", "--agents", "claude", "--yes", cwd=proj, env=env).returncode == 0
    shown = run_cli("status", cwd=proj, env=env)
    assert shown.returncode == 0, shown.stderr
    assert ".mcp.json  MCP entry: installed; written, waiting for Claude Code's folder trust" in (
        shown.stdout)  # fmt: skip
    assert "Zed" not in shown.stdout  # it reads CLAUDE.md too, but it is not installed
    (proj / ".claude/settings.local.json").write_text('{"enabledMcpjsonServers": ["toon-memory"]}')
    assert "waiting for Claude Code's folder trust" in run_cli("status", cwd=proj, env=env).stdout
    state = {"projects": {str(proj): {"hasTrustDialogAccepted": True}}}
    (Path(env["HOME"]) / ".claude.json").write_text(json.dumps(state))
    shown = run_cli("status", cwd=proj, env=env)
    assert ".mcp.json  MCP entry: installed; server answers" in shown.stdout
    (proj / ".claude/settings.json").write_text("{oops")
    broken = run_cli("status", "--no-probe", cwd=proj, env=env)
    assert broken.returncode == 1
    assert "settings.json:1" in broken.stdout


def test_uninstall_one_agent_keeps_a_shared_instruction_block(
    env: dict[str, str], proj: Path
) -> None:
    assert run_cli("init", "--agents", "codex,opencode", "--yes", cwd=proj, env=env).returncode == 0
    done = run_cli("uninstall", "--agents", "codex", "--yes", cwd=proj, env=env)
    assert done.returncode == 0, done.stderr
    assert not (proj / ".codex").exists()
    assert "toon-memory:start" in (proj / "AGENTS.md").read_text()
    assert run_cli("uninstall", "--agents", "opencode", "--yes", cwd=proj, env=env).returncode == 0
    assert not (proj / "AGENTS.md").exists()


def test_global_scope_writes_user_configs(env: dict[str, str], proj: Path) -> None:
    done = run_cli(
        "init", "global", "--agents", "claude,goose,windsurf", "--yes", cwd=proj, env=env
    )
    assert done.returncode == 0, done.stderr
    home = Path(env["HOME"])
    entry = json.loads((home / ".claude.json").read_text())["mcpServers"]["toon-memory"]
    assert entry["args"] == ["mcp"]
    assert "toon-memory:" in (home / ".config/goose/config.yaml").read_text()
    assert (home / ".codeium/windsurf/mcp_config.json").is_file()
    assert not (proj / ".toon-memory").exists()


def test_upgrade_dry_run_and_detection(env: dict[str, str], proj: Path) -> None:
    done = run_cli("upgrade", "--dry-run", cwd=proj, env=env)
    assert done.returncode == 0 and done.stdout.strip()
    assert detect_upgrade("/h/.local/pipx/venvs/toon-memory", source=None).argv == (
        "pipx", "upgrade", "toon-memory")  # fmt: skip
    assert detect_upgrade("/h/.local/share/uv/tools/toon-memory", source=None).method == "uv"
    pip = detect_upgrade("/venv", python="/venv/bin/python", source=None)
    assert pip.argv == ("/venv/bin/python", "-m", "pip", "install", "--upgrade", "toon-memory")
    source = detect_upgrade("/venv", source="/src/toon-memory")
    assert source.argv is None and "/src/toon-memory" in source.advice


def test_upgrade_advice_follows_how_pip_installed_it() -> None:
    """Issue 22: a plain pip install is never told to reinstall with ``pip install -e``."""
    folder = {"url": "file:///src/toon-memory", "dir_info": {}}
    plain = detect_upgrade("/venv", python="/venv/bin/python", direct=folder)
    assert plain.argv is None and "-e" not in plain.advice.split()
    assert "/venv/bin/python -m pip install --upgrade /src/toon-memory" in plain.advice
    editable = {"url": "file:///src/toon-memory", "dir_info": {"editable": True}}
    assert "pip install -e /src/toon-memory" in detect_upgrade(direct=editable).advice
    wheel = {"url": "file:///dl/toon_memory-0.1.0-py3-none-any.whl", "archive_info": {}}
    from_file = detect_upgrade("/venv", python="/venv/bin/python", direct=wheel)
    assert from_file.argv == ("/venv/bin/python", "-m", "pip", "install", "--upgrade",
                              "toon-memory")  # fmt: skip
    index = detect_upgrade("/venv", python="/venv/bin/python", direct={})
    assert index.method == "pip"


def test_unknown_agent_is_a_clear_error(env: dict[str, str], proj: Path) -> None:
    done = run_cli("init", "--agents", "notepad", "--yes", cwd=proj, env=env)
    assert done.returncode == 2
    assert "agents: unknown agent 'notepad'" in done.stderr


def test_init_without_yes_or_a_terminal_writes_no_agent_config(
    env: dict[str, str], proj: Path
) -> None:
    (proj / ".cursor").mkdir()
    done = run_cli("init", "--json", cwd=proj, env={**env, "PATH": "/nonexistent"})
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["agents"] == [] and Path(data["folder"]).is_dir()
    assert not (proj / ".cursor/mcp.json").exists()
    text = run_cli("init", cwd=proj, env={**env, "PATH": "/nonexistent"}).stdout
    assert "Cursor" in text and "--yes" in text
    assert not (proj / ".cursor/mcp.json").exists()


def test_a_server_started_in_the_filesystem_root_uses_the_global_memory(
    env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from toon_memory.store.paths import find_project_root, home_dir

    monkeypatch.setenv("HOME", env["HOME"])
    monkeypatch.setenv("TOON_MEMORY_HOME", env["TOON_MEMORY_HOME"])
    monkeypatch.delenv("TOON_MEMORY_PROJECT", raising=False)
    assert find_project_root("/") == home_dir().resolve() == Path(env["HOME"]).resolve()


def test_init_git_registers_the_merge_driver_and_the_hook(env: dict[str, str], proj: Path) -> None:
    import subprocess

    subprocess.run(["git", "init", "-q", str(proj)], check=True)
    done = run_cli("init", "--git", "--json", cwd=proj, env=env)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["git"]
    assert "merge=toon-memory" in (proj / ".gitattributes").read_text()
    driver = subprocess.run(["git", "-C", str(proj), "config", "merge.toon-memory.driver"],
                            capture_output=True, text=True, check=True).stdout  # fmt: skip
    assert "merge-driver %O %A %B" in driver
    assert "hook pre-commit" in (proj / ".git/hooks/pre-commit").read_text()
    again = run_cli("init", "--git", cwd=proj, env=env)
    assert again.returncode == 0, again.stderr  # a second run changes nothing


def test_status_json_holds_what_the_text_says(env: dict[str, str], proj: Path) -> None:
    nothing = json.loads(run_cli("status", "--json", cwd=proj, env=env).stdout)
    assert nothing == {"installed": False, "ok": True, "agents": []}
    assert run_cli("init", "--agents", "claude", "--yes", cwd=proj, env=env).returncode == 0
    state = {"projects": {str(proj): {"hasTrustDialogAccepted": True}}}
    (Path(env["HOME"]) / ".claude.json").write_text(json.dumps(state))
    (proj / ".claude/settings.local.json").write_text('{"enabledMcpjsonServers": ["toon-memory"]}')
    shown = run_cli("status", "--json", cwd=proj, env=env)
    assert shown.returncode == 0, shown.stderr
    data = json.loads(shown.stdout)
    assert data["installed"] and data["ok"] and [a["agent"] for a in data["agents"]] == ["claude"]
    entry = next(f for f in data["agents"][0]["files"] if f["what"] == "MCP entry")
    assert entry["path"] == str(proj / ".mcp.json") and entry["state"] == "installed"
    assert entry["server"]["answers"] and entry["server"]["tools"] > 30
    (proj / ".claude/settings.json").write_text("{oops")
    broken = run_cli("status", "--json", "--no-probe", cwd=proj, env=env)
    assert broken.returncode == 1
    hooks = next(f for f in json.loads(broken.stdout)["agents"][0]["files"] if f["what"] == "hooks")
    assert hooks["state"] == "error" and not hooks["ok"] and "settings.json:1" in hooks["problem"]
