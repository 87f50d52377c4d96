"""The agent a hook or server belongs to: its parent process, past any shell in between."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from toon_memory import Memory
from toon_memory.adapters.installer.replies import agent_from_env, agent_from_payload, context_reply
from toon_memory.system.processes import agent_pid, process_info


def _proc(tmp_path: Path, table: dict[int, tuple[str, int]]) -> Path:
    for pid, (name, parent) in table.items():
        folder = tmp_path / "proc" / str(pid)
        folder.mkdir(parents=True)
        (folder / "stat").write_text(f"{pid} ({name}) S {parent} {pid} 1 0 -1 4194560\n")
    return tmp_path / "proc"


def test_shells_between_the_hook_and_its_agent_are_skipped(tmp_path: Path) -> None:
    proc = _proc(tmp_path, {50: ("bash", 40), 40: ("sh", 30), 30: ("node", 1), 20: ("claude", 1),
                            10: ("sh", 1), 60: ("odd) name (x", 5)})  # fmt: skip
    assert agent_pid(50, proc) == 30
    assert agent_pid(20, proc) == 20
    assert agent_pid(10, proc) == 10  # a shell whose parent is init is the agent
    assert agent_pid(99, proc) == 99  # unknown: the parent itself
    assert process_info(60, proc) == ("odd) name (x", 5)
    (proc / "70").mkdir()
    (proc / "70" / "stat").write_text("garbage")
    assert process_info(70, proc) is None


@pytest.mark.skipif(
    not Path("/proc/self/stat").exists() or not shutil.which("sh"), reason="no /proc"
)
def test_a_hook_run_through_a_shell_records_the_agent_pid(project: Path) -> None:
    Memory(project).init()
    agent = textwrap.dedent(
        """
        import os, subprocess, sys
        line = f"{sys.executable} -m toon_memory hook post-tool; true"  # sh stays as the parent
        subprocess.run(["sh", "-c", line], input='{"session_id": "via-sh"}', text=True, check=True)
        print(os.getpid())
        """
    )
    env = {**os.environ, "TOON_MEMORY_PROJECT": str(project)}
    done = subprocess.run([sys.executable, "-c", agent], capture_output=True, text=True, env=env,
                          check=True, timeout=120)  # fmt: skip
    recorded = json.loads((project / ".toon-memory/memory/sessions/via-sh.json").read_text())
    assert recorded["pid"] == int(done.stdout.strip())


def test_replies_and_agents_from_the_environment() -> None:
    assert agent_from_env({"CLAUDE_PROJECT_DIR": "/p"}) == "claude"
    assert agent_from_env({"CLAUDE_PROJECT_DIR": "/p", "GEMINI_PROJECT_DIR": "/p"}) == "gemini"
    assert agent_from_env({"CLAUDE_PROJECT_DIR": "/p", "CURSOR_VERSION": "1.7"}) == "cursor"
    assert agent_from_env({}) == ""
    assert agent_from_payload({"turn_id": "t1", "session_id": "s"}) == "codex"
    assert agent_from_payload({"session_id": "s"}) == ""
    default = json.loads(context_reply("", "SessionStart", "hi"))
    assert default == {
        "hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "hi"}
    }
    assert json.loads(context_reply("Cursor", "sessionStart", "hi")) == {"additional_context": "hi"}
    assert context_reply("goose", "SessionStart", "hi") == ""
    assert context_reply("claude", "SessionStart", "") == ""
