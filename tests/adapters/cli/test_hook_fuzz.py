"""Hooks never fail their agent, whatever payload arrives on stdin (a property test).

Each example runs one real ``toon-memory hook <action> [--agent X]`` process
in a real project with a payload built from the fields agents send, with
values of any JSON type (strings with NULs or 50,000 characters, nested
lists, numbers where a string belongs) and event names from every agent.
Properties: exit 0, no traceback, at most one stderr line, and stdout empty
or (session-start) the reply an agent reads.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.project.gitrepo import init_repo

from toon_memory import Memory

_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False)
    | st.sampled_from(["", "\x00", "x" * 50_000, "../../etc", "SessionStart", "Edit", "src/a.py"])
    | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=8,
)  # fmt: skip
_FIELDS = ["session_id", "hook_event_name", "cwd", "tool_name", "tool_input", "tool_response",
           "transcript_path", "prompt", "sessionId", "event", "file_path", "pid"]  # fmt: skip
_EVENTS = ["SessionStart", "PostToolUse", "Stop", "sessionStart", "AfterTool", "agentSpawn",
           "taskStart", "UserPromptSubmit", "", "nonsense"]  # fmt: skip


@st.composite
def payloads(draw: st.DrawFn) -> str:
    data: dict[str, Any] = {f: draw(_VALUES) for f in draw(st.sets(st.sampled_from(_FIELDS)))}
    if draw(st.booleans()):
        data["hook_event_name"] = draw(st.sampled_from(_EVENTS))
    if draw(st.integers(0, 9)) == 0:
        return draw(st.sampled_from(["", "null", "[]", "{", "\x00", "42"]))
    return json.dumps(data)


@pytest.fixture
def fuzz_project(tmp_path: Path) -> Path:
    """One project for all the examples of a run (they may leave sessions behind: fine)."""
    root = init_repo(tmp_path / "proj")
    Memory(root).remember("decision", "use-zod", "Validate input with zod.")
    return root


@pytest.mark.filterwarnings("ignore:Generating overly large repr")
@given(action=st.sampled_from(["session-start", "post-tool", "stop"]),
       agent=st.sampled_from([None, "claude", "codex", "gemini", "cursor", "nope"]),
       payload=payloads())  # fmt: skip
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
def test_any_payload_exits_0_with_at_most_one_line(
    fuzz_project: Path, action: str, agent: str | None, payload: str
) -> None:
    args = ["hook", action, *(["--agent", agent] if agent else [])]
    done = subprocess.run([sys.executable, "-m", "toon_memory", *args], input=payload,
                          cwd=fuzz_project, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "TOON_MEMORY_PROJECT": str(fuzz_project)})  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and done.stderr.count("\n") <= 1, done.stderr
    if action != "session-start":
        assert done.stdout == ""
