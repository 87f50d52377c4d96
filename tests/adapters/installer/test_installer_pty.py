"""The guided installer in a pseudo-terminal: by number, by name, all, Enter, q; usage without a TTY."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest
from tests.adapters.installer.helpers import INSTALLER_SCRIPT

PICK = "Choose agents"


def _spawn(proj: Path, env: dict[str, str]) -> pexpect.spawn:
    full = {**os.environ, **env, "PATH": "/nonexistent", "TERM": "dumb"}
    full.pop("TOON_MEMORY_PROJECT", None)
    child = pexpect.spawn(sys.executable, ["-c", INSTALLER_SCRIPT], cwd=str(proj), env=full,
                          encoding="utf-8", timeout=60)  # fmt: skip
    child.expect(PICK)
    return child


def _finish(child: pexpect.spawn, scope: str = "1", proceed: str = "") -> str:
    child.expect("Scope:")
    child.sendline(scope)
    child.expect(r"Proceed\? \[Y/n\]")
    summary = child.before
    child.sendline(proceed)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before
    return str(summary)


def test_by_number(env: dict[str, str], proj: Path) -> None:
    child = _spawn(proj, env)
    child.sendline("4")
    summary = _finish(child)
    assert "Cursor → project → .cursor/mcp.json (MCP entry)" in summary
    assert (proj / ".cursor/mcp.json").is_file()
    assert (proj / ".toon-memory/memory").is_dir()


def test_by_name(env: dict[str, str], proj: Path) -> None:
    child = _spawn(proj, env)
    child.sendline("claude,codex")
    _finish(child)
    assert (proj / ".mcp.json").is_file() and (proj / ".codex/config.toml").is_file()
    assert not (proj / ".cursor").exists()


def test_all_in_user_scope(env: dict[str, str], proj: Path) -> None:
    child = _spawn(proj, env)
    child.sendline("all")
    summary = _finish(child, scope="2")
    assert "Aider → skipped" in summary
    home = Path(env["HOME"])
    assert (home / ".claude.json").is_file() and (home / ".codex/config.toml").is_file()
    assert not (proj / ".toon-memory").exists()


def test_enter_takes_the_detected_agents(env: dict[str, str], proj: Path) -> None:
    (proj / ".kiro").mkdir()
    child = _spawn(proj, env)
    assert "Kiro" in child.before
    child.sendline("")
    _finish(child)
    assert (proj / ".kiro/settings/mcp.json").is_file()
    assert not (proj / ".mcp.json").exists()


def test_q_changes_nothing(env: dict[str, str], proj: Path) -> None:
    child = _spawn(proj, env)
    child.sendline("q")
    child.expect("Nothing changed")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert sorted(p.name for p in proj.iterdir()) == [".git"]


def test_declining_the_summary_changes_nothing(env: dict[str, str], proj: Path) -> None:
    child = _spawn(proj, env)
    child.sendline("nonsense")
    child.expect("unknown agent")
    child.sendline("3")
    _finish(child, proceed="n")
    assert sorted(p.name for p in proj.iterdir()) == [".git"]


@pytest.mark.parametrize("stdin", ["", "1\n1\n\n"])
def test_without_a_terminal_it_prints_usage(stdin: str, env: dict[str, str], proj: Path) -> None:
    full = {**os.environ, **env}
    done = subprocess.run([sys.executable, "-c", INSTALLER_SCRIPT], cwd=proj, env=full, input=stdin,
                          capture_output=True, text=True, timeout=60, check=False)  # fmt: skip
    assert done.returncode == 0
    assert "toon-memory init local" in done.stdout
    assert sorted(p.name for p in proj.iterdir()) == [".git"]
