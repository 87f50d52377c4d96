"""Hook payloads of every agent with shell hooks, in the shapes the reference documents."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toon_memory.adapters.installer.payloads import HookEvent, parse_hook_payload
from toon_memory.errors import InputError

CWD = "/home/dev/proj"
PAYLOADS = {
    "claude": {
        "session_id": "abc",
        "transcript_path": "/t.jsonl",
        "cwd": CWD,
        "permission_mode": "default",
        "hook_event_name": "PostToolUse",
        "tool_name": "Edit",
        "tool_input": {"file_path": f"{CWD}/src/app.py", "old_string": "a", "new_string": "b"},
        "tool_response": {"filePath": f"{CWD}/src/app.py", "success": True},
        "tool_use_id": "toolu_1",
    },
    "codex": {
        "session_id": "s-1",
        "transcript_path": None,
        "cwd": CWD,
        "hook_event_name": "PostToolUse",
        "model": "o3",
        "permission_mode": "default",
        "turn_id": "t1",
        "tool_name": "apply_patch",
        "tool_use_id": "c1",
        "tool_input": {
            "input": "*** Begin Patch\n*** Update File: src/app.py\n@@\n-a\n+b\n"
            "*** Add File: src/new.py\n+x\n*** End Patch"
        },
        "tool_response": "ok",
    },
    "gemini": {
        "session_id": "g1",
        "transcript_path": "/t",
        "cwd": CWD,
        "hook_event_name": "AfterTool",
        "timestamp": "2026-07-15T10:00:00Z",
        "tool_name": "write_file",
        "tool_input": {"file_path": f"{CWD}/src/app.py", "content": "x"},
        "tool_response": {"llmContent": "ok", "returnDisplay": "ok", "error": None},
    },
    "qwen": {
        "session_id": "q1",
        "cwd": CWD,
        "hook_event_name": "PostToolUse",
        "timestamp": "t",
        "tool_name": "edit",
        "tool_input": {"file_path": "src/app.py"},
        "tool_call_id": "x",
    },
    "vscode": {
        "timestamp": "t",
        "cwd": CWD,
        "sessionId": "vs-1",
        "hookEventName": "PostToolUse",
        "transcript_path": "/t",
        "tool_name": "editFiles",
        "tool_input": {"files": [f"{CWD}/src/app.py"]},
        "tool_use_id": "u",
        "tool_response": "",
    },
    "cursor": {
        "conversation_id": "c-9",
        "generation_id": "g",
        "hook_event_name": "afterFileEdit",
        "workspace_roots": [CWD],
        "file_path": f"{CWD}/src/app.py",
        "edits": [],
        "cursor_version": "1.7",
        "user_email": None,
    },
    "cline": {
        "clineVersion": "3.36",
        "hookName": "PostToolUse",
        "timestamp": "t",
        "taskId": "task-7",
        "workspaceRoots": [CWD],
        "userId": "u",
        "postToolUse": {
            "toolName": "write_to_file",
            "parameters": {"path": "src/app.py"},
            "result": "ok",
            "success": True,
        },
    },
    "grok": {
        "hookEventName": "post_tool_use",
        "sessionId": "gk",
        "cwd": CWD,
        "workspaceRoot": CWD,
        "timestamp": "t",
        "toolName": "edit_file",
        "toolInput": {"file_path": "src/app.py"},
        "toolUseId": "x",
        "toolResult": "ok",
    },
    "goose": {
        "event": "PostToolUse",
        "session_id": "go",
        "working_dir": CWD,
        "tool_name": "developer__text_editor",
        "tool_call_id": "x",
        "tool_input": {"command": "write", "path": f"{CWD}/src/app.py"},
    },
    "junie": {
        "hook_event_name": "SessionStart",
        "session_id": "j",
        "cwd": CWD,
        "project_path": CWD,
    },
    "kiro": {
        "hook_event_name": "postToolUse",
        "cwd": CWD,
        "tool_name": "fs_write",
        "tool_input": {"path": "src/app.py"},
        "tool_response": {},
    },
    "windsurf": {
        "agent_action_name": "post_write_code",
        "trajectory_id": "w",
        "execution_id": "e",
        "timestamp": "t",
        "tool_info": {"file_path": f"{CWD}/src/app.py", "edits": []},
    },
    "opencode": {
        "cwd": CWD,
        "session_id": "ses_1",
        "hook_event_name": "PostToolUse",
        "tool_name": "edit",
        "tool_input": {"filePath": f"{CWD}/src/app.py"},
    },
}
SESSIONS = {"claude": "abc", "codex": "s-1", "gemini": "g1", "qwen": "q1", "vscode": "vs-1",
            "cursor": "c-9", "cline": "task-7", "grok": "gk", "goose": "go", "junie": "j",
            "kiro": "", "windsurf": "w", "opencode": "ses_1"}  # fmt: skip


@pytest.mark.parametrize("agent", sorted(PAYLOADS))
def test_each_agent_payload(agent: str) -> None:
    event = parse_hook_payload(json.dumps(PAYLOADS[agent]), agent)
    assert event.session_id == SESSIONS[agent]
    if agent != "windsurf":
        assert event.cwd == CWD
    if agent == "windsurf":
        assert f"{CWD}/src/app.py" in event.files
    elif agent != "junie":
        assert "src/app.py" in event.files
    assert event.event


def test_tool_names_and_patch_files() -> None:
    codex = parse_hook_payload(json.dumps(PAYLOADS["codex"]))
    assert codex.tool_name == "apply_patch"
    assert codex.files == ("src/app.py", "src/new.py")
    assert parse_hook_payload(json.dumps(PAYLOADS["cline"])).tool_name == "write_to_file"
    assert parse_hook_payload(json.dumps(PAYLOADS["grok"])).tool_name == "edit_file"


def test_files_outside_cwd_stay_absolute_and_are_not_repeated() -> None:
    payload = {"cwd": CWD, "tool_input": {"file_path": "/etc/hosts", "path": "/etc/hosts"}}
    assert parse_hook_payload(json.dumps(payload)).files == ("/etc/hosts",)


def test_empty_stdin_is_an_empty_event() -> None:
    assert parse_hook_payload("") == HookEvent()


@pytest.mark.parametrize("raw", ["not json", "[1, 2]", "42", b"\xff\xfe"])
def test_non_object_payload_is_an_input_error(raw: str | bytes) -> None:
    with pytest.raises(InputError, match="stdin"):
        parse_hook_payload(raw)


_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4)
    ),
    max_leaves=30,
)
_keys = st.sampled_from(["session_id", "sessionId", "cwd", "workspace_roots", "tool_input",
                         "postToolUse", "tool_name", "file_path", "edits", "paths", "event"])  # fmt: skip


@given(st.dictionaries(_keys | st.text(max_size=8), _json, max_size=8))
def test_any_json_object_parses_without_error(data: dict[str, object]) -> None:
    event = parse_hook_payload(json.dumps(data))
    assert isinstance(event.session_id, str) and isinstance(event.cwd, str)
    assert all(isinstance(f, str) for f in event.files)
