"""``toon-memory hook …`` through the real CLI, fed the payloads agents send (agents.md).

Each "agent" is a real process that runs its hook commands as children, the
way Claude Code, Codex or Gemini do: so a hook's parent is its agent, and two
agents are two processes. A hook never breaks its agent: whatever goes wrong,
exit 0 and at most one line on stderr.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from tests.adapters.server.helpers import snapshot
from tests.project.gitrepo import commit_files, init_repo

from toon_memory import Memory
from toon_memory.search.budget import estimate_tokens
from toon_memory.store.config import update_config

#: An agent process: runs each (action, payload, extra args) as ``toon-memory hook`` children.
AGENT = textwrap.dedent(
    """
    import json, subprocess, sys
    calls = json.loads(sys.stdin.read())
    out = []
    for action, payload, extra in calls:
        raw = payload if isinstance(payload, str) else json.dumps(payload)
        done = subprocess.run([sys.executable, "-m", "toon_memory", "hook", action, *extra],
                              input=raw, capture_output=True, text=True, timeout=120)
        out.append([done.returncode, done.stdout, done.stderr])
    print(json.dumps(out))
    """
)


def agent(project: Path, calls: list[tuple[str, Any, list[str]]], **env: str) -> list[list[Any]]:
    """Run ``calls`` from one agent process in ``project``; [(exit code, stdout, stderr)]."""
    full = {k: v for k, v in os.environ.items() if not k.endswith("_PROJECT_DIR")}
    full.update(env)
    done = subprocess.run([sys.executable, "-c", AGENT], input=json.dumps(calls), cwd=project,
                          capture_output=True, text=True, env=full, timeout=300, check=True)  # fmt: skip
    results: list[list[Any]] = json.loads(done.stdout)
    return results


def sessions_cli(project: Path) -> dict[str, Any]:
    done = subprocess.run([sys.executable, "-m", "toon_memory", "sessions", "--json"], cwd=project,
                          capture_output=True, text=True, timeout=60, check=True)  # fmt: skip
    data: dict[str, Any] = json.loads(done.stdout)
    return data


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = init_repo(tmp_path / "proj", branch="feature/auth")
    commit_files(root, {"src/app.py": "x = 1\n", "src/types.ts": "export {}\n"}, "first")
    memory = Memory(root)
    memory.init()
    memory.remember("decision", "use-zod", "Use Zod for validation, shared schemas in src/schemas")
    memory.remember("warning", "no-sync-io", "Never call sync I/O in request handlers")
    return root


def claude(cwd: Path, event: str, sid: str = "7f0c-claude", **extra: Any) -> dict[str, Any]:
    return {"session_id": sid, "transcript_path": "/tmp/t.jsonl", "cwd": str(cwd),
            "permission_mode": "default", "hook_event_name": event, **extra}  # fmt: skip


def codex(cwd: Path, event: str, sid: str = "019a-codex", **extra: Any) -> dict[str, Any]:
    return {"session_id": sid, "transcript_path": None, "cwd": str(cwd), "hook_event_name": event,
            "model": "gpt-5-codex", "permission_mode": "default", **extra}  # fmt: skip


def gemini(cwd: Path, event: str, sid: str = "g-3a1", **extra: Any) -> dict[str, Any]:
    return {"session_id": sid, "transcript_path": "/tmp/g.json", "cwd": str(cwd),
            "hook_event_name": event, "timestamp": "2026-07-15T10:00:00Z", **extra}  # fmt: skip


def _context(stdout: str, event: str = "SessionStart") -> str:
    reply = json.loads(stdout)
    assert reply["hookSpecificOutput"]["hookEventName"] == event
    text: str = reply["hookSpecificOutput"]["additionalContext"]
    return text


def test_claude_code_session_start_post_tool_stop(project: Path) -> None:
    edit = claude(project, "PostToolUse", tool_name="Edit", tool_use_id="toolu_1",
                  tool_input={"file_path": str(project / "src/app.py"), "old_string": "1",
                              "new_string": "2"},
                  tool_response={"filePath": str(project / "src/app.py"), "success": True})  # fmt: skip
    read = claude(project, "PostToolUse", tool_name="Read",
                  tool_input={"file_path": str(project / "README.md")})  # fmt: skip
    (start, post, post_read) = agent(project, [
        ("session-start", claude(project, "SessionStart", source="startup"), []),
        ("post-tool", edit, []), ("post-tool", read, []),
    ], CLAUDE_PROJECT_DIR=str(project))  # fmt: skip
    assert [start[0], post[0], post_read[0]] == [0, 0, 0]
    assert start[2] == post[2] == ""
    text = _context(start[1])
    assert "this session claude @ feature/auth (7f0c-claude)" in text
    assert "No other active sessions." in text
    assert "use-zod" in text and "no-sync-io" in text
    assert post[1] == "" and post_read[1] == ""
    (listed,) = sessions_cli(project)["sessions"]
    assert (listed["id"], listed["agent"], listed["branch"]) == (
        "7f0c-claude",
        "claude",
        "feature/auth",
    )
    assert listed["files"] == ["src/app.py"]  # a Read touches nothing
    (stop,) = agent(project, [("stop", claude(project, "Stop", stop_hook_active=False), [])])
    assert stop == [0, "", ""]
    assert sessions_cli(project)["sessions"] == []
    recorded = json.loads((project / ".toon-memory/memory/sessions/7f0c-claude.json").read_text())
    assert recorded["ended"] is True


def test_codex_session_and_apply_patch(project: Path) -> None:
    patch = ("*** Begin Patch\n*** Update File: src/app.py\n@@\n-x = 1\n+x = 2\n"
             "*** Add File: src/new.py\n+y = 1\n*** End Patch")  # fmt: skip
    post = codex(project, "PostToolUse", turn_id="t1", tool_name="apply_patch", tool_use_id="c1",
                 tool_input={"input": patch}, tool_response="Success")  # fmt: skip
    start, tool, stop = agent(project, [
        ("session-start", codex(project, "SessionStart", source="startup"), []),
        ("post-tool", post, []),
        ("stop", codex(project, "Stop", turn_id="t1", stop_hook_active=False), []),
    ])  # fmt: skip
    assert [start[0], tool[0], stop[0]] == [0, 0, 0] and tool[2] == ""
    assert "this session agent @ feature/auth (019a-codex)" in _context(start[1])
    recorded = json.loads((project / ".toon-memory/memory/sessions/019a-codex.json").read_text())
    assert recorded["ended"] is True and recorded["branch"] == "feature/auth"
    assert recorded["agent"] == "codex"  # named by its post-tool payload (turn_id)
    assert recorded["files"] == []  # released when it ended


def test_gemini_stdout_is_json_only(project: Path) -> None:
    write = gemini(project, "AfterTool", tool_name="write_file",
                   tool_input={"file_path": str(project / "src/types.ts"), "content": "x"},
                   tool_response={"llmContent": "ok", "returnDisplay": "ok", "error": None})  # fmt: skip
    start, post = agent(project, [
        ("session-start", gemini(project, "SessionStart", source="startup"), []),
        ("post-tool", write, []),
    ], GEMINI_PROJECT_DIR=str(project), CLAUDE_PROJECT_DIR=str(project))  # fmt: skip
    assert json.loads(start[1])  # the whole stdout parses
    assert "gemini @ feature/auth" in _context(start[1])
    assert post == [0, "", ""]
    (session,) = sessions_cli(project)["sessions"]
    assert (session["agent"], session["files"]) == ("gemini", ["src/types.ts"])
    (end,) = agent(project, [("stop", gemini(project, "SessionEnd", reason="exit"), [])])
    assert end == [0, "", ""] and sessions_cli(project)["sessions"] == []


def test_two_agents_on_one_file_see_each_other_and_the_conflict(project: Path) -> None:
    edit = {"tool_name": "Edit", "tool_input": {"file_path": str(project / "src/types.ts")}}
    agent(project, [("session-start", claude(project, "SessionStart"), []),
                    ("post-tool", claude(project, "PostToolUse", **edit), [])],
          CLAUDE_PROJECT_DIR=str(project))  # fmt: skip
    write = {"tool_name": "write_file", "tool_input": {"file_path": "src/types.ts"}}
    start, _ = agent(project, [("session-start", gemini(project, "SessionStart"), []),
                               ("post-tool", gemini(project, "AfterTool", **write), [])],
                     GEMINI_PROJECT_DIR=str(project))  # fmt: skip
    assert "No other active sessions." not in _context(start[1])
    (third,) = agent(project, [("session-start", codex(project, "SessionStart"), [])])
    text = _context(third[1])
    assert "Other active sessions (2):" in text
    assert (
        "- claude @ feature/auth (7f0c-claude)" in text and "gemini @ feature/auth (g-3a1)" in text
    )
    assert "⚠️ Soft conflicts (1)" in text and "src/types.ts" in text
    data = sessions_cli(project)
    assert data["conflicts"] == [{"file": "src/types.ts", "sessions": ["7f0c-claude", "g-3a1"]}]


def test_one_agent_process_does_not_conflict_with_itself(project: Path) -> None:
    edit = {"tool_name": "Edit", "tool_input": {"file_path": "src/types.ts"}}
    agent(project, [("post-tool", claude(project, "PostToolUse", sid="one", **edit), []),
                    ("post-tool", claude(project, "PostToolUse", sid="two", **edit), [])])  # fmt: skip
    data = sessions_cli(project)
    assert len(data["sessions"]) == 2 and data["conflicts"] == []


def test_session_start_context_stays_within_the_hook_budget(project: Path) -> None:
    memory = Memory(project)
    for n in range(60):
        memory.remember("pattern", f"pattern-{n}", f"Pattern number {n}: " + "words " * 30)
    update_config(memory.paths.config, {"hookBudgetTokens": 150})
    (start,) = agent(project, [("session-start", claude(project, "SessionStart"), [])])
    text = _context(start[1])
    assert estimate_tokens(text) <= 150
    assert text.startswith("toon-memory: this session") and text.endswith("left out (budget 150)")


def test_capture_on_logs_post_tool_events(project: Path) -> None:
    bash = claude(project, "PostToolUse", tool_name="Bash",
                  tool_input={"command": "API_KEY=sk-abcdefghijklmnopqrstuvwx pytest -q"})  # fmt: skip
    agent(project, [("post-tool", bash, [])])
    listed = subprocess.run([sys.executable, "-m", "toon_memory", "captured", "--json"],
                            cwd=project, capture_output=True, text=True, check=True)  # fmt: skip
    assert json.loads(listed.stdout) == {"action": "list", "capture": False, "events": []}
    update_config(project / ".toon-memory/memory/config.json", {"capture": True})
    agent(project, [("post-tool", bash, [])])
    listed = subprocess.run([sys.executable, "-m", "toon_memory", "captured", "--json"],
                            cwd=project, capture_output=True, text=True, check=True)  # fmt: skip
    (event,) = json.loads(listed.stdout)["events"]
    assert (event["session"], event["tool"], event["file"]) == ("7f0c-claude", "Bash", "")
    assert event["summary"] == "Bash: API_KEY=<redacted> pytest -q"


def test_per_invocation_events_inject_once(project: Path) -> None:
    pre = {"session_id": "agy-1", "cwd": str(project), "hook_event_name": "PreInvocation"}
    first, second = agent(project, [("session-start", pre, []), ("session-start", pre, [])])
    assert "agy-1" in _context(first[1], "PreInvocation")
    assert second == [0, "", ""]


@pytest.mark.parametrize(
    ("env", "option", "shape"),
    [({"CURSOR_VERSION": "1.7"}, [], "additional_context"),
     ({}, ["--agent", "cline"], "contextModification"),
     ({"GROK_HOOK_EVENT": "session_start"}, [], None)],
)  # fmt: skip
def test_reply_shapes_follow_the_agent(
    project: Path, env: dict[str, str], option: list[str], shape: str | None
) -> None:
    payload = {"conversation_id": "c-9", "workspace_roots": [str(project)],
               "hook_event_name": "sessionStart"}  # fmt: skip
    ((code, out, err),) = agent(project, [("session-start", payload, option)], **env)
    assert (code, err) == (0, "")
    if shape is None:
        assert out == ""
    else:
        assert list(json.loads(out)) == [shape] and "use-zod" in json.loads(out)[shape]


@pytest.mark.parametrize(
    ("action", "stdin", "extra", "says"),
    [("post-tool", "not json {", [], "stdin"),
     ("session-start", "[1, 2]", [], "stdin"),
     ("bogus", "{}", [], "action"),
     ("post-tool", "{}", ["--no-such-option", "x"], None)],
)  # fmt: skip
def test_bad_input_exits_0_with_one_line_and_writes_nothing(
    project: Path, action: str, stdin: str, extra: list[str], says: str | None
) -> None:
    before = snapshot(project / ".toon-memory")
    ((code, out, err),) = agent(project, [(action, stdin, extra)])
    assert (code, out) == (0, "")
    if says is not None:
        assert err.count("\n") == 1 and says in err
        assert snapshot(project / ".toon-memory") == before


def test_no_memory_is_not_created_by_a_hook(tmp_path: Path) -> None:
    root = init_repo(tmp_path / "bare")
    ((code, out, err),) = agent(root, [("session-start", claude(root, "SessionStart"), [])])
    assert (code, out) == (0, "") and "no memory in" in err and err.count("\n") == 1
    assert not (root / ".toon-memory").exists()


def test_an_unwritable_sessions_folder_does_not_break_the_agent(project: Path) -> None:
    (project / ".toon-memory/memory/sessions").write_text("a file where a folder should be")
    results = agent(project, [("session-start", claude(project, "SessionStart"), []),
                              ("post-tool", claude(project, "PostToolUse", tool_name="Edit",
                                                   tool_input={"file_path": "src/app.py"}), [])])  # fmt: skip
    for code, out, err in results:
        assert (code, out) == (0, "") and err.count("\n") == 1


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root ignores modes")
def test_a_read_only_memory_folder_does_not_break_the_agent(project: Path) -> None:
    folder = project / ".toon-memory/memory"
    folder.chmod(0o555)
    try:
        ((code, out, err),) = agent(
            project, [("session-start", claude(project, "SessionStart"), [])]
        )
    finally:
        folder.chmod(0o755)
    assert (code, out) == (0, "") and err.count("\n") == 1


def test_parallel_agents_each_keep_their_own_heartbeat(project: Path) -> None:
    def calls(n: int) -> list[tuple[str, Any, list[str]]]:
        return [("post-tool", claude(project, "PostToolUse", sid=f"par-{n}", tool_name="Edit",
                                     tool_input={"file_path": f"src/f{n}_{i}.py"}), [])
                for i in range(6)]  # fmt: skip

    procs = [subprocess.Popen([sys.executable, "-c", AGENT], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, cwd=project, text=True)
             for _ in range(4)]  # fmt: skip
    outs = [p.communicate(json.dumps(calls(n)), timeout=300)[0] for n, p in enumerate(procs)]
    assert all(code == 0 and err == "" for out in outs for code, _, err in json.loads(out))
    found = {s["id"]: s["files"] for s in sessions_cli(project)["sessions"]}
    assert sorted(found) == [f"par-{n}" for n in range(4)]
    for n in range(4):
        assert sorted(found[f"par-{n}"]) == sorted(f"src/f{n}_{i}.py" for i in range(6))
    assert not list((project / ".toon-memory/memory/sessions").glob("*.tmp"))


@pytest.mark.skipif(not shutil.which("sh"), reason="needs a POSIX shell")
def test_a_closed_stdout_still_exits_0(project: Path) -> None:
    line = f"{sys.executable} -m toon_memory hook session-start >&-"
    payload = json.dumps(claude(project, "SessionStart"))
    done = subprocess.run(["sh", "-c", line], input=payload, text=True, cwd=project,
                          capture_output=True, timeout=120)  # fmt: skip
    assert done.returncode == 0 and done.stderr.count("\n") == 1
