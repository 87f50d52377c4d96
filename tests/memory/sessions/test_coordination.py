"""``Memory.sessions``: heartbeats in a real git repository, soft conflicts between agent
processes, lazy pruning, merging observations (with and without promotion), captured activity."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tests.conftest import STORES, open_memory
from tests.project.gitrepo import commit_files, git, init_repo

from toon_memory import Memory
from toon_memory.errors import InputError
from toon_memory.model import heartbeat as S
from toon_memory.rules.coordination import (
    activity_summary,
    agent_conflicts,
    hook_session_id,
    is_read_tool,
    redact,
)
from toon_memory.store.config import update_config


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = init_repo(tmp_path / "repo", branch="feature/auth")
    commit_files(root, {"src/auth.py": "x = 1\n"}, "first")
    return root


@pytest.fixture(params=STORES)
def memory(request: pytest.FixtureRequest, repo: Path) -> Memory:
    memory = open_memory(request, repo)
    memory.init()
    return memory


def _in_team(memory: Memory) -> bool:
    from toon_memory.store.team.sessions import TeamHeartbeats

    return isinstance(memory.store.sessions(), TeamHeartbeats)


def _dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait(timeout=30)
    return proc.pid


def test_beat_records_the_branch_files_and_is_listed_as_you(memory: Memory, repo: Path) -> None:
    session = memory.sessions.beat(
        "claude-1", agent="claude", files=[str(repo / "src/auth.py"), "./src/db.py:10-20"], pid=4242
    )
    assert (session.branch, session.files, session.pid) == (
        "feature/auth",
        ("src/auth.py", "src/db.py"),
        4242,
    )
    if _in_team(memory):  # the database's row, not a file
        assert not (memory.paths.folder / "sessions").exists()
        recorded = memory.store.sessions().get("claude-1").to_dict()  # type: ignore[union-attr]
    else:
        recorded = json.loads((memory.paths.folder / "sessions" / "claude-1.json").read_text())
    assert recorded["agent"] == "claude" and recorded["branch"] == "feature/auth"
    report = memory.sessions.list()
    assert [s.id for s in report.sessions] == ["claude-1"]
    assert report.you == "claude-1" and report.window_minutes == 10
    assert report.to_dict()["sessions"][0]["you"] is True
    git(repo, "checkout", "-q", "-b", "other")
    assert memory.sessions.beat("claude-1", agent=None).branch == "other"
    assert memory.sessions.get("claude-1").agent == "claude"  # type: ignore[union-attr]


def test_soft_conflicts_are_between_agent_processes(memory: Memory) -> None:
    sessions = memory.sessions
    sessions.beat("a", agent="opencode", files=["src/types.ts", "src/auth.ts"], pid=1001)
    sessions.beat("b", agent="claude", files=["src/types.ts", "src/db.ts"], pid=1002)
    sessions.beat("b-mcp", agent="claude-code", files=["src/db.ts"], pid=1002)  # same agent
    report = sessions.list()
    assert report.conflicts == {"src/types.ts": ("a", "b")}
    assert report.you == "b-mcp" and set(report.mine) == {"b", "b-mcp"}
    assert [s.id for s in report.others()] == ["a"]
    only = sessions.list(conflicts_only=True).to_dict()
    assert "sessions" not in only and only["conflicts"] == [
        {"file": "src/types.ts", "sessions": ["a", "b"]}
    ]
    sessions.end("a")
    assert sessions.list().conflicts == {}
    assert "a" not in [s.id for s in sessions.list().sessions]  # ended: not active


def test_sessions_past_the_window_go_and_dead_ones_are_pruned(memory: Memory) -> None:
    beats = memory.store.sessions()
    old = S.clock_now() - timedelta(minutes=30)
    beats.beat("dead", agent="x", files=["a.py"], pid=_dead_pid(), now=old)
    beats.beat("idle", agent="y", files=["a.py"], pid=1, now=old)  # pid 1 lives
    memory.sessions.beat("live", agent="z", files=["a.py"], pid=1003)
    report = memory.sessions.list()
    assert [s.id for s in report.sessions] == ["live"] and report.conflicts == {}
    # A team session's process cannot be checked (another host): past the window, it goes.
    gone = ("dead", "idle") if _in_team(memory) else ("dead",)
    assert report.pruned == gone
    assert sorted(s.id for s in beats.read()) == sorted({"dead", "idle", "live"} - set(gone))


def test_the_window_comes_from_config(memory: Memory) -> None:
    memory.store.sessions().beat("s", agent="x", pid=1, now=S.clock_now() - timedelta(minutes=20))
    update_config(memory.paths.config, {"sessionWindowMinutes": 30})
    report = memory.sessions.list()
    assert [s.id for s in report.sessions] == ["s"] and report.window_minutes == 30
    update_config(memory.paths.config, {"sessionWindowMinutes": 10})
    assert memory.sessions.list().sessions == ()


def test_bad_ids_and_unknown_sessions_are_input_errors(memory: Memory) -> None:
    with pytest.raises(InputError) as bad:
        memory.sessions.beat("../evil", agent="x")
    assert bad.value.field == "session_id"
    with pytest.raises(InputError) as missing:
        memory.sessions.end("nobody")
    assert missing.value.field == "session_id"
    assert not (memory.paths.folder / "sessions").exists()


def test_a_beat_creates_the_memory_folder_with_its_gitignore(repo: Path) -> None:
    memory = Memory(repo)
    assert not memory.sessions.exists()
    memory.sessions.beat("s", agent="x")
    assert "sessions/" in (memory.paths.folder / ".gitignore").read_text()


# -- merge ------------------------------------------------------------------------------------


def _observe(memory: Memory) -> None:
    sessions = memory.sessions
    sessions.beat("a", agent="claude", pid=2001, notes=[
        ("src/auth.py", "JWT refresh tokens expire after 15 minutes"),
        ("src/auth.py", "Login rate limit is 5 attempts per minute per IP"),
        ("src/db.py", "The pool holds 20 connections"),
    ])  # fmt: skip
    sessions.beat("b", agent="codex", pid=2002, notes=[
        ("./src/auth.py", "JWT refresh tokens expire after 15 minutes, rotated on use"),
    ])  # fmt: skip


def test_merge_folds_near_duplicates_across_sessions(memory: Memory) -> None:
    _observe(memory)
    report = memory.sessions.merge("src/auth.py")
    assert report.file == "src/auth.py" and report.observations == 3
    assert [m.text for m in report.merged] == [
        "JWT refresh tokens expire after 15 minutes, rotated on use",
        "Login rate limit is 5 attempts per minute per IP",
    ]
    assert report.merged[0].sessions == ("a", "b") and report.sessions == ("a", "b")
    assert report.promoted == ()
    assert memory.entries() == []  # nothing written without promote


def test_merge_with_promote_remembers_each_merged_observation(memory: Memory) -> None:
    _observe(memory)
    report = memory.sessions.merge("src/auth.py:12", promote=True)
    assert [r.created for r in report.promoted] == [True, True]
    entries = {e.key: e for e in memory.entries()}
    assert len(entries) == 2
    jwt = next(e for e in entries.values() if "JWT" in e.content)
    assert (jwt.category, jwt.file, jwt.origin) == ("knowledge", "src/auth.py", "inferred")
    assert "session-merge" in jwt.tags
    again = memory.sessions.merge("src/auth.py", promote=True)
    assert again.promoted == () and set(again.known) == set(entries)  # dedup: nothing twice
    assert len(memory.entries()) == 2


def test_merge_reads_the_captured_log_too_and_checks_its_file(memory: Memory) -> None:
    from toon_memory.store.captured import capture

    capture(memory.paths.folder, {"session": "c", "agent": "gemini", "file": "src/db.py",
                                  "summary": "Migrations run with alembic upgrade head"})  # fmt: skip
    report = memory.sessions.merge("src/db.py")
    assert [m.text for m in report.merged][-1] == "Migrations run with alembic upgrade head"
    assert memory.sessions.merge("src/none.py").merged == ()
    with pytest.raises(InputError) as empty:
        memory.sessions.merge("  ")
    assert empty.value.field == "file"


# -- captured ---------------------------------------------------------------------------------


def test_tool_use_is_captured_only_when_capture_is_on(memory: Memory) -> None:
    sessions = memory.sessions
    sessions.tool_used(
        "s", agent="claude", files=["src/a.py"], tool="Edit", summary="Edit src/a.py"
    )
    assert sessions.captured().events == () and not sessions.captured().enabled
    update_config(memory.paths.config, {"capture": True})
    sessions.tool_used("s", agent=None, files=["src/a.py", "src/b.py"], tool="Edit", summary="e")
    sessions.tool_used("s", agent=None, files=["src/c.py"], tool="Read", summary="r")
    report = sessions.captured()
    assert report.enabled
    assert [(e["file"], e["tool"], e["agent"]) for e in report.events] == [
        ("src/a.py", "Edit", "claude"), ("src/b.py", "Edit", "claude"), ("src/c.py", "Read", "claude"),
    ]  # fmt: skip
    assert sessions.get("s").files == ("src/a.py", "src/b.py")  # type: ignore[union-attr]
    assert len(sessions.captured(limit=1).events) == 1
    assert sessions.captured("clear").cleared == 3
    assert sessions.captured().events == ()


@pytest.mark.parametrize(
    ("action", "limit", "field"),
    [("purge", 50, "action"), ("list", 0, "limit"), ("list", True, "limit")],
)
def test_captured_checks_its_arguments(memory: Memory, action: str, limit: int, field: str) -> None:
    with pytest.raises(InputError) as bad:
        memory.sessions.captured(action, limit)
    assert bad.value.field == field


# -- pure rules -------------------------------------------------------------------------------


def test_read_tools_redaction_summary_and_hook_ids() -> None:
    assert [
        is_read_tool(t) for t in ("Read", "read_file", "NotebookRead", "Grep", "list_directory")
    ] == [True] * 5
    assert not any(
        is_read_tool(t) for t in ("Edit", "Write", "apply_patch", "Bash", "write_file", "")
    )
    text = redact(
        "curl -H 'Authorization: Bearer abc.def.ghi123' api_key=sk-proj-abcdefghijklmnopqrstu"
    )
    assert "abc.def" not in text and "sk-proj" not in text and "<redacted>" in text
    summary = activity_summary("Bash", [], {"tool_input": {"command": "export TOKEN=hunter2hunter2 && make"},
                                            "tool_response": {"command": "ignored"}})  # fmt: skip
    assert summary == "Bash: export TOKEN=<redacted> && make"
    assert (
        activity_summary("Edit", ["src/a.py"], {"tool_input": {"file_path": "src/a.py"}})
        == "Edit src/a.py"
    )
    assert len(activity_summary("Bash", [], {"command": "x" * 500})) == 200
    assert hook_session_id("6f1c-uuid", "claude", 9) == "6f1c-uuid"
    assert hook_session_id("a/b:c", "", 9) == "a-b-c"
    assert hook_session_id("", "gemini", 77) == "gemini-77"
    assert hook_session_id("", "", 77) == "agent-77"
    S.check_session_id(hook_session_id("../../" + "x" * 300, "", 1))


_files = st.lists(st.sampled_from(["a.py", "b.py", "c.py", "d.py"]), max_size=4)


@given(st.lists(st.tuples(_files, st.booleans()), max_size=6))
def test_with_one_session_per_process_conflicts_are_the_soft_conflicts(
    rows: list[tuple[list[str], bool]],
) -> None:
    sessions = [S.Session(id=f"s{n}", files=tuple(files), pid=100 + n, ended=ended)
                for n, (files, ended) in enumerate(rows)]  # fmt: skip
    expected = {f: tuple(ids) for f, ids in S.soft_conflicts(sessions).items()}
    assert agent_conflicts(sessions) == expected
    one_agent = [S.Session(id=s.id, files=s.files, pid=7, ended=s.ended) for s in sessions]
    assert agent_conflicts(one_agent) == {}
