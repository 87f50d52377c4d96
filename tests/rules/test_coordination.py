"""``rules.coordination``: sessions of one agent process never conflict with each other,
hook ids are safe file stems, and activity lines carry no recognised secret and stay short."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toon_memory.model.heartbeat import Session, check_session_id
from toon_memory.rules.coordination import (
    MAX_SUMMARY_CHARS,
    activity_summary,
    agent_conflicts,
    hook_session_id,
    is_read_tool,
    redact,
    same_agent,
)


def test_sessions_of_one_process_never_conflict() -> None:
    hook = Session(id="claude-hook", pid=4242, host="box", files=("app.py",))
    server = Session(id="claude-mcp", pid=4242, host="box", files=("app.py",))
    assert agent_conflicts([hook, server]) == {}
    other = Session(id="codex-1", pid=777, host="box", files=("app.py", "db.py"))
    assert agent_conflicts([hook, server, other]) == {"app.py": ("claude-hook", "claude-mcp",
                                                                 "codex-1")}  # fmt: skip


def test_same_pid_on_another_host_is_another_process_and_no_pid_is_its_own() -> None:
    one = Session(id="a", pid=4242, host="box1", files=("f",))
    two = Session(id="b", pid=4242, host="box2", files=("f",))
    assert agent_conflicts([one, two]) == {"f": ("a", "b")}
    lone1, lone2 = Session(id="x", pid=0, files=("f",)), Session(id="y", pid=1, files=("f",))
    assert agent_conflicts([lone1, lone2]) == {"f": ("x", "y")}


def test_ended_sessions_never_conflict() -> None:
    live = Session(id="a", pid=10, files=("f",))
    done = Session(id="b", pid=20, files=("f",), ended=True)
    assert agent_conflicts([live, done]) == {}


@given(st.lists(st.tuples(st.sampled_from("abcdef"), st.sampled_from([0, 10, 20, 30]),
                          st.sets(st.sampled_from("xyz")), st.booleans()),
                max_size=8, unique_by=lambda row: row[0]))  # fmt: skip
def test_agent_conflicts_property(rows: list[tuple[str, int, set[str], bool]]) -> None:
    sessions = [Session(id=i, pid=p, files=tuple(sorted(f)), ended=e) for i, p, f, e in rows]
    conflicts = agent_conflicts(sessions)
    for file in "xyz":
        live = [s for s in sessions if not s.ended and file in s.files]
        processes = {s.pid if s.pid > 1 else s.id for s in live}
        if len(processes) >= 2:
            assert conflicts[file] == tuple(sorted(s.id for s in live))
        else:
            assert file not in conflicts


def test_same_agent_lists_every_session_of_the_process() -> None:
    sessions = [Session(id="a", pid=5), Session(id="b", pid=5), Session(id="c", pid=6)]
    assert same_agent(sessions, "a") == ("a", "b")
    assert same_agent(sessions, "c") == ("c",)
    assert same_agent(sessions, "unknown") == ("unknown",) and same_agent(sessions, "") == ()


@pytest.mark.parametrize(("given_id", "agent", "expected"),
                         [("abc-123", "claude", "abc-123"), ("../../etc/passwd", "x", "etc-passwd"),
                          ("", "Claude Code", "Claude-Code-99"), ("///", "", "agent-99"),
                          ("", "../", "agent-99")])  # fmt: skip
def test_hook_session_id(given_id: str, agent: str, expected: str) -> None:
    assert hook_session_id(given_id, agent, 99) == expected


@given(st.text(max_size=200), st.text(max_size=60), st.integers(0, 2**22))
def test_hook_session_ids_are_always_safe_file_stems(given_id: str, agent: str, pid: int) -> None:
    made = hook_session_id(given_id, agent, pid)
    assert check_session_id(made) == made


@pytest.mark.parametrize(("tool", "reads"),
                         [("Read", True), ("read_file", True), ("NotebookRead", True),
                          ("mcp__fs__list_directory", True), ("Grep", True), ("WebFetch", True),
                          ("Edit", False), ("Write", False), ("Bash", False),
                          ("mcp__github__create_issue", False), ("", False),
                          ("ReadmeWriter", False)])  # fmt: skip
def test_is_read_tool(tool: str, reads: bool) -> None:
    assert is_read_tool(tool) is reads


#: Built from parts at run time so the repository never carries a string a scanner flags.
SECRETS = [
    "sk-" + "abcdefghij" + "klmnopqrstuv",
    "AK" + "IA" + "ABCDEFGHIJKLMNOP",
    "ghp_" + "a1" * 12,
    "xo" + "xb-" + "1234567890-abc",
    "-----BEGIN RSA " + "PRIVATE KEY-----\nMIIEow\n-----END RSA " + "PRIVATE KEY-----",
]


@pytest.mark.parametrize("secret", SECRETS)
def test_redact_removes_each_kind_of_secret(secret: str) -> None:
    out = redact(f"run with {secret} now")
    assert secret not in out and "<redacted>" in out and out.startswith("run with")


@pytest.mark.parametrize(("text", "kept"),
                         [("Authorization: Bearer abcdef123456", "Bearer <redacted>"),
                          ("password=hunter2hunter2", "password=<redacted>"),
                          ('API_KEY: "s3cr3tvalue"', 'API_KEY: "<redacted>'),
                          ("token = abc", "token = abc")])  # fmt: skip
def test_redact_keeps_the_name_and_drops_the_value(text: str, kept: str) -> None:
    assert kept in redact(text)


def test_activity_summary_shows_tool_files_and_redacted_detail() -> None:
    line = activity_summary("Bash", ["a.py", "b.py", "c.py", "d.py"],
                            {"tool_input": {"command": "deploy  --token=abcdefghij\n now"}})  # fmt: skip
    assert line == "Bash a.py, b.py, c.py: deploy --token=<redacted> now"
    assert activity_summary("", [], {}) == "tool"


def test_activity_summary_never_reads_the_tool_response() -> None:
    payload = {"tool_response": {"output": {"command": "leaked"}}, "tool_input": {"x": 1}}
    assert activity_summary("Edit", ["f"], payload) == "Edit f"


@given(st.text(max_size=500), st.lists(st.text(max_size=80), max_size=5), st.text(max_size=600))
def test_activity_summary_is_bounded_and_secret_free(tool: str, files: list[str],
                                                     command: str) -> None:  # fmt: skip
    secret = "sk-" + "Z" * 20
    line = activity_summary(tool, files, {"tool_input": {"command": f"{command} {secret}"}})
    assert len(line) <= MAX_SUMMARY_CHARS
    assert secret not in line or secret in tool or any(secret in f for f in files)
    detail = line.split(": ", 1)[-1] if ": " in line else ""
    assert "\n" not in detail or "\n" in tool or any("\n" in f for f in files)
