"""The installer's plain hook lines start without click; any other line goes through click.

Both paths must behave alike: same reply, same session state, exit 0. The
fast path is checked on real processes (what it imports, the project it picks).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from tests.adapters.cli.test_hooks import agent, claude
from tests.project.gitrepo import commit_files, init_repo

from toon_memory import Memory
from toon_memory.adapters.cli.hook_run import HookLine, fast_argv


@pytest.mark.parametrize(
    ("args", "parsed"),
    [(["session-start"], HookLine("session-start")),
     (["post-tool", "--agent", "codex"], HookLine("post-tool", "codex")),
     (["--agent=gemini", "stop"], HookLine("stop", "gemini")),
     (["pre-commit"], HookLine("pre-commit")),
     ([], None), (["--help"], None), (["stop", "-h"], None), (["bogus"], None),
     (["stop", "stop"], None), (["stop", "--agent"], None),
     (["stop", "--agent", "a", "--agent", "b"], None), (["stop", "--no-such-option"], None)],
)  # fmt: skip
def test_fast_argv_takes_only_the_installer_shapes(
    args: list[str], parsed: HookLine | None
) -> None:
    assert fast_argv(args) == parsed


def _project(root: Path) -> Path:
    init_repo(root, branch="feature/auth")
    commit_files(root, {"src/app.py": "x = 1\n"}, "first")
    memory = Memory(root)
    memory.init()
    memory.remember("decision", "use-zod", "Use Zod for validation, shared schemas in src/schemas")
    return root


def test_fast_and_click_paths_reply_alike(tmp_path: Path) -> None:
    replies = []
    for name, extra in (("fast", ["--agent", "claude"]), ("click", ["--agent", "claude", "--x"])):
        root = _project(tmp_path / name)
        edit = claude(root, "PostToolUse", tool_name="Edit", tool_input={"file_path": "src/app.py"})
        results = agent(root, [("session-start", claude(root, "SessionStart"), extra),
                               ("post-tool", edit, extra), ("stop", claude(root, "Stop"), extra)])  # fmt: skip
        assert all(code == 0 and err == "" for code, _, err in results)
        session = json.loads((root / ".toon-memory/memory/sessions/7f0c-claude.json").read_text())
        replies.append((results[0][1], session["files"], session["ended"], session["agent"]))
    assert replies[0] == replies[1]
    assert "use-zod" in replies[0][0] and replies[0][1:] == ([], True, "claude")  # stop released


def _run_hook(cwd: Path, code: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], cwd=cwd, capture_output=True, text=True,
                          timeout=120, env={**os.environ, **env}, input="{}")  # fmt: skip


def test_the_fast_path_loads_no_click_and_no_other_command(tmp_path: Path) -> None:
    root = _project(tmp_path / "p")
    code = (
        "import os, sys\n"
        "leave = os._exit\n"
        "def report(status):\n"
        "    loaded = [m for m in sys.modules if m == 'click' or m.endswith('_commands')]\n"
        "    sys.stdout.write(f'{status} {loaded}\\n'); sys.stdout.flush(); leave(status)\n"
        "os._exit = report\n"
        "sys.argv = ['toon-memory', 'hook', 'stop', '--agent', 'claude']\n"
        "from toon_memory.adapters.cli.main import main\n"
        "main()\n"
    )
    done = _run_hook(root, code, {})
    assert (done.stdout, done.stderr) == ("0 []\n", "")
    slow = _run_hook(root, code.replace("'stop', ", "'stop', '--x', "), {})
    assert slow.stdout.startswith("0 ['click'") and slow.stderr == ""  # click takes what is odd


def test_the_fast_path_honours_toon_memory_project(tmp_path: Path) -> None:
    root = _project(tmp_path / "p")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    payload = json.dumps({"session_id": "s-env", "hook_event_name": "SessionStart"})
    done = subprocess.run([sys.executable, "-m", "toon_memory", "hook", "session-start"],
                          input=payload, cwd=elsewhere, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "TOON_MEMORY_PROJECT": str(root)})  # fmt: skip
    assert done.returncode == 0 and done.stderr == "" and "use-zod" in done.stdout
    assert (root / ".toon-memory/memory/sessions/s-env.json").exists()
    missing = {**os.environ, "TOON_MEMORY_PROJECT": str(tmp_path / "missing")}
    refused = subprocess.run([sys.executable, "-m", "toon_memory", "hook", "stop"], input="{}",
                             cwd=elsewhere, capture_output=True, text=True, timeout=120, env=missing)  # fmt: skip
    # a hook never fails its agent: one line on stderr, exit 0, nothing created
    assert refused.returncode == 0 and refused.stdout == ""
    assert "TOON_MEMORY_PROJECT" in refused.stderr and "skipped" in refused.stderr
    assert not (tmp_path / "missing").exists()
