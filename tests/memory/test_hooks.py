"""``Memory.hook`` and ``memory.hooks.after_write``: a hook's whole work on a memory, one call.

Real memories in temp folders; the heartbeat files are read back through ``Memory.sessions``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.conftest import STORES, open_memory

from toon_memory.errors import InputError
from toon_memory.memory.api import Memory
from toon_memory.memory.hooks import START_EVENTS, HookCall, HookStart, after_write
from toon_memory.render.sessions import hook_started


@pytest.fixture(params=STORES)
def memory(request: pytest.FixtureRequest, project: Path) -> Memory:
    found = open_memory(request, project)
    found.init()
    found.remember("decision", "use-zod", "Validate input with zod", tags="api")
    return found


def _call(action: str, **more: object) -> HookCall:
    return HookCall(action, "claude", 4242, session_id="s-1", **more)  # type: ignore[arg-type]


def test_session_start_beats_and_returns_the_start_context(memory: Memory) -> None:
    started = memory.hook(_call("session-start", event="SessionStart"))
    assert isinstance(started, HookStart)
    assert memory.sessions.get("s-1") is not None
    assert started.budget_tokens == memory.config.hook_budget_tokens
    text = hook_started(started, {}).text
    assert "use-zod" in text and "this session claude" in text


def test_a_per_invocation_event_of_a_live_session_says_nothing(memory: Memory) -> None:
    assert memory.hook(_call("session-start", event="SessionStart")) is not None
    assert "preinvocation" not in START_EVENTS
    assert memory.hook(_call("session-start", event="PreInvocation")) is None
    assert memory.hook(_call("session-start", event="TaskStart")) is not None


def test_post_tool_records_the_files_and_stop_ends_the_session(memory: Memory) -> None:
    memory.hook(_call("session-start"))
    files = ("src/api.py",)
    assert memory.hook(_call("post-tool", tool="Edit", files=files)) is None
    session = memory.sessions.get("s-1")
    assert session is not None and "src/api.py" in session.files
    assert memory.hook(_call("stop")) is None
    ended = memory.sessions.get("s-1")
    assert ended is not None and ended.ended


def test_no_memory_is_refused_and_not_created(tmp_path: Path) -> None:
    root = tmp_path / "bare"
    (root / ".git").mkdir(parents=True)
    with pytest.raises(InputError) as caught:
        Memory(root).hook(_call("session-start"))
    assert caught.value.field == "project"
    assert not (root / ".toon-memory").exists()


def test_after_write_notes_the_file_and_never_creates_a_folder(
    memory: Memory, tmp_path: Path
) -> None:
    args = {"file": "src/types.ts", "content": "Zod schemas here", "key": "k"}
    assert after_write(memory, "mcp-1", agent="mcp", arguments=args, pid=4242)
    session = memory.sessions.get("mcp-1")
    assert session is not None and "src/types.ts" in session.files
    assert any("Zod schemas here" in str(note) for note in session.notes)
    bare = tmp_path / "bare"
    (bare / ".git").mkdir(parents=True)
    assert not after_write(Memory(bare), "mcp-2", agent="mcp", arguments=args, pid=1)
    assert not (bare / ".toon-memory").exists()


def test_current_is_pinned_then_recent_newest_first(memory: Memory) -> None:
    memory.remember("pattern", "later", "A later entry")
    memory.pin("use-zod")
    keys = [e.key for e in memory.current()]
    assert set(keys) == {"use-zod", "later"} and len(keys) == 2
    assert keys == sorted(keys, key=lambda k: memory.get(k).updated, reverse=True)
