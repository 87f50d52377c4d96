"""Hot memory: ``SESSION-STATE.json`` at the workspace root.

Invariant: the file is only ever replaced atomically (``write_atomic``:
temp file, fsync, rename), every update is a locked read-modify-write that
keeps keys this module does not know, and ``last_updated`` is set on every
write. A missing file reads as the empty state. A value must be valid
Unicode and at most ``MAX_VALUE_BYTES`` (checked before the lock). Pure API for the CLI and the
MCP ``memory_state`` tool: ``read_state``, ``update_state``, ``clear_state``,
and ``apply_action`` (the one rule for show/set/add/clear that both use).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from toon_memory.errors import InputError, quote
from toon_memory.model.checks import check_choice
from toon_memory.model.clock import now_iso
from toon_memory.model.entry import (
    STATE_ACTIONS,
    STATE_FIELDS,
    STATE_LIST_FIELDS,
    STATE_TEXT_FIELDS,
)
from toon_memory.store.paths import STORE_DIR
from toon_memory.system.atomic import write_atomic
from toon_memory.system.jsonfile import read_json_object
from toon_memory.system.lock import FileLock

STATE_FILE = "SESSION-STATE.json"
TEXT_FIELDS = STATE_TEXT_FIELDS
LIST_FIELDS = STATE_LIST_FIELDS
FIELDS = STATE_FIELDS
ACTIONS = STATE_ACTIONS


def state_path(workspace: Path) -> Path:
    return Path(workspace) / STATE_FILE


def empty_state() -> dict[str, Any]:
    return {
        "current_task": "",
        "key_context": [],
        "pending_actions": [],
        "recent_decisions": [],
        "last_updated": "",
    }


def read_state(workspace: Path) -> dict[str, Any]:
    """The hot state (every documented field present; unknown keys kept)."""
    data = read_json_object(state_path(workspace))
    state = empty_state()
    state.update(data)
    for name in LIST_FIELDS:
        if not isinstance(state[name], list):
            state[name] = [] if state[name] in (None, "") else [state[name]]
    if state["current_task"] is None:
        state["current_task"] = ""
    return state


def write_state(workspace: Path, state: dict[str, Any]) -> dict[str, Any]:
    """Replace the file with ``state`` (``last_updated`` set now); returns what was written."""
    data = dict(state)
    data["last_updated"] = now_iso()
    text = json.dumps(data, ensure_ascii=False, indent=2) + "\n"
    write_atomic(state_path(workspace), text.encode("utf-8"))
    return data


def _lock(workspace: Path) -> FileLock:
    return FileLock(Path(workspace) / STORE_DIR / "session-state.lock")


def check_field(name: str, *, list_only: bool = False) -> str:
    value = str(name or "").strip().replace("-", "_")
    allowed = LIST_FIELDS if list_only else FIELDS
    if value not in allowed:
        raise InputError("field", f"must be one of {', '.join(allowed)}; got {quote(name)}")
    return value


def update_state(
    workspace: Path, *, set_fields: dict[str, Any] | None = None,
    add: dict[str, list[str]] | None = None, clear: list[str] | None = None,
) -> dict[str, Any]:  # fmt: skip
    """Set fields, append to list fields, clear fields (in that order); one atomic write.

    ``set_fields`` on a list field replaces the list (a string becomes a
    one-item list); ``add`` skips a value already present; ``clear`` of a
    list empties it, of ``current_task`` makes it "".
    """
    sets = {check_field(k): v for k, v in (set_fields or {}).items()}
    adds = {check_field(k, list_only=True): list(v) for k, v in (add or {}).items()}
    clears = [check_field(k) for k in (clear or [])]
    with _lock(workspace):
        state = read_state(workspace)
        for name, value in sets.items():
            state[name] = _as_field(name, value)
        for name, values in adds.items():
            state[name] = [*state[name], *(v for v in values if v not in state[name])]
        for name in clears:
            state[name] = [] if name in LIST_FIELDS else ""
        return write_state(workspace, state)


def clear_state(workspace: Path) -> dict[str, Any]:
    """Reset every documented field (unknown keys are kept)."""
    return update_state(workspace, clear=list(FIELDS))


def init_state(workspace: Path) -> bool:
    """Create the file if it is missing; True when created."""
    with _lock(workspace):
        if state_path(workspace).exists():
            return False
        write_state(workspace, empty_state())
        return True


def _as_field(name: str, value: Any) -> Any:
    if name in LIST_FIELDS:
        if isinstance(value, (list, tuple)):
            return [str(v) for v in value]
        return [str(value)] if str(value or "").strip() else []
    if not isinstance(value, str):
        raise InputError(name, f"must be text; got {quote(value)}")
    return value


#: Most UTF-8 bytes one ``set``/``add`` may bring (the default content limit).
MAX_VALUE_BYTES = 64 * 1024


def _check_values(values: list[str]) -> None:
    """Values of valid Unicode within ``MAX_VALUE_BYTES`` in all; InputError naming ``value``."""
    size = 0
    for text in values:
        try:
            size += len(text.encode("utf-8"))
        except UnicodeEncodeError as exc:
            raise InputError(
                "value", f"is not valid Unicode text (a lone surrogate at character {exc.start})"
            ) from None
        if size > MAX_VALUE_BYTES:
            raise InputError("value", f"is over the limit of {MAX_VALUE_BYTES} bytes")


def apply_action(
    workspace: Path, action: str = "show", field: str | None = None,
    value: str | list[str] | tuple[str, ...] | None = None,
) -> dict[str, Any]:  # fmt: skip
    """Show the state, or set/add/clear one field.

    ``clear`` empties ``field``, or each field named in ``value``, or, with
    neither, every documented field (one write in every case).
    ``set`` on ``current_task`` joins several values with spaces; on a list
    field it replaces the list. ``add`` appends to a list field.
    """
    action = check_choice(action, "action", ACTIONS)
    if action in ("set", "add") and not field:
        raise InputError("field", f"is required for action {quote(action)}")
    if action in ("set", "add") and value is None:
        raise InputError("value", f"is required for action {quote(action)}")
    values = [str(v) for v in value] if isinstance(value, (list, tuple)) else [str(value)]
    _check_values(values)
    if action == "show":
        return read_state(workspace)
    if action == "clear":
        names = [field] if field else values if value is not None else list(FIELDS)
        return update_state(workspace, clear=names)
    name = check_field(str(field), list_only=action == "add")
    if action == "add":
        return update_state(workspace, add={name: values})
    return update_state(
        workspace, set_fields={name: values if name in LIST_FIELDS else " ".join(values)}
    )
