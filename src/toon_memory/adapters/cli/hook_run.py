"""What ``toon-memory hook …`` does, without click: agents run it on every event.

Invariant: a hook never breaks its agent. Whatever happens (stdin that is not
JSON, no memory, a read-only folder, an unknown action, any bug) it writes at
most one line on stderr and exits 0; stdout carries only the reply the agent
reads (``agents.replies``), and only from session-start. A hook never creates
a memory folder. The session is the agent's (its payload's session id;
``pid`` the agent's process: the parent, past any shell); the project is
``--project``/``TOON_MEMORY_PROJECT``, else the payload's ``cwd``, else the
working directory. ``fast_argv`` takes the plain command lines the installer
writes, so they start without click and the other commands
(``cli.main``); anything else goes through the click command
(``cli.hook_command``), which runs the same ``run_and_report``. What a
hook does to the memory is one ``Memory.hook`` call (``memory.hooks``);
this module only parses the payload and prints the reply. With ``--server``
(or ``TOON_MEMORY_SERVER``) the same ``HookCall`` goes to that team server
instead (``cli.remote.hook_reply``), and the local memory is never opened.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from toon_memory.model.entry import GIT_HOOK_ACTIONS, HOOK_ACTIONS

if TYPE_CHECKING:
    from toon_memory.adapters.installer import HookEvent
    from toon_memory.memory.api import Memory
    from toon_memory.memory.hooks import HookCall

#: What the plain hook lines run: the agents' hooks, and git's pre-commit.
ACTIONS = frozenset({*HOOK_ACTIONS, *GIT_HOOK_ACTIONS})


class HookLine(NamedTuple):
    """A plain hook line: its action, ``--agent``, ``--server`` and ``--token-env``."""

    action: str
    agent: str | None = None
    server: str | None = None
    token_env: str | None = None


_OPTIONS = ("--agent", "--server", "--token-env")


def fast_argv(args: Sequence[str]) -> HookLine | None:
    """The ``HookLine`` of ``<action> [--agent NAME] [--server URL] [--token-env VAR]`` (any
    order, ``--opt=value`` too, each once) with a known action; None for anything else."""
    action, given, rest = "", dict[str, str](), list(args)
    while rest:
        arg = rest.pop(0)
        name, eq, value = arg.partition("=")
        if name in _OPTIONS and name not in given and (eq or rest):
            given[name] = value if eq else rest.pop(0)
        elif arg in ACTIONS and not action:
            action = arg
        else:
            return None
    if not action:
        return None
    return HookLine(action, *(given.get(name) for name in _OPTIONS))


def fast_project() -> tuple[bool, str | None]:
    """``(usable, project)`` from ``TOON_MEMORY_PROJECT``: unset, or an existing folder
    (what the click group accepts); anything else is reported by ``skip_hook``."""
    project = os.environ.get("TOON_MEMORY_PROJECT")
    if project is None:
        return True, None
    return (bool(project) and os.path.isdir(project)), project


def skip_hook(action: str, problem: str) -> None:
    """One line on stderr saying why the hook did nothing (it still exits 0)."""
    with contextlib.suppress(Exception):  # stderr gone: nothing left to tell
        sys.stderr.write(f"toon-memory hook {action}: {problem}; skipped"[:300] + "\n")
        sys.stderr.flush()


def run_and_report(project: str | None, action: str, agent: str | None,
                   server: str | None = None, token_env: str | None = None) -> None:  # fmt: skip
    """Run the hook (on the team server ``server`` when given, or ``TOON_MEMORY_SERVER``);
    print its reply on stdout, or one line on stderr on any problem."""
    try:
        if action == "pre-commit":  # git gives no payload: stdin may be a terminal
            reply = _pre_commit(project)
        elif server or _server_from_env():
            reply = _remote_hook(server, token_env, action, agent, _stdin(), project)
        else:
            reply = run_hook(project, action, agent, _stdin())
        if reply:
            sys.stdout.write(reply + "\n")
        sys.stdout.flush()
    except Exception as exc:  # a hook must never break its agent
        problem = " ".join(str(exc).split()) or type(exc).__name__
        with contextlib.suppress(Exception):  # stderr gone: nothing left to tell
            sys.stderr.write(f"toon-memory hook {action or '?'}: {problem}"[:300] + "\n")
    finally:
        settle_streams()


def _pre_commit(project: str | None) -> str:
    from toon_memory.memory.api import Memory

    return Memory(Path(project) if project else None, one_shot=True).sharing.pre_commit()


def settle_streams() -> None:
    """Swap a closed or broken stdout/stderr for the null device, so leaving exits 0."""
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        try:
            stream.flush()
        except Exception:  # None, closed, or a reader that went away
            setattr(sys, name, open(os.devnull, "w", encoding="utf-8"))  # noqa: SIM115


def _stdin() -> bytes:
    stream = sys.stdin
    if stream is None or stream.isatty():
        return b""
    return stream.buffer.read()


def _memory(project: str | None, event: HookEvent) -> Memory:
    from toon_memory.memory.api import Memory

    if project:
        return Memory(Path(project), one_shot=True)
    cwd = Path(event.cwd) if event.cwd else None
    return Memory(cwd if cwd is not None and cwd.is_dir() else None, one_shot=True)


def _server_from_env() -> str:
    from toon_memory.adapters.installer.remote import SERVER_ENV

    return os.environ.get(SERVER_ENV, "").strip()


def _remote_hook(server: str | None, token_env: str | None, action: str, agent_opt: str | None,
                 raw: bytes, project: str | None) -> str:  # fmt: skip
    """The hook against a team server (``cli.remote.hook_reply``): the same event, sent."""
    from toon_memory.adapters.cli.remote import hook_reply, remote_from
    from toon_memory.model.checks import check_choice

    check_choice(action, "action", HOOK_ACTIONS)
    remote = remote_from(server, token_env)
    if remote is None:
        return ""
    from toon_memory.store.paths import find_project_root

    call, event = _hook_call(action, agent_opt, raw)
    start = project or (event.cwd if event.cwd and os.path.isdir(event.cwd) else None)
    return hook_reply(remote, call, find_project_root(Path(start) if start else None))


def _hook_call(action: str, agent_opt: str | None, raw: bytes) -> tuple[HookCall, HookEvent]:
    """The ``HookCall`` of a payload (agent: ``--agent``, the environment, else the payload)."""
    from toon_memory.adapters.installer import parse_hook_payload
    from toon_memory.adapters.installer.replies import agent_from_env, agent_from_payload
    from toon_memory.memory.hooks import HookCall
    from toon_memory.system.processes import agent_pid

    agent = (agent_opt or agent_from_env(os.environ)).strip().lower()
    event = parse_hook_payload(raw, agent or None)
    agent = agent or agent_from_payload(event.raw)
    call = HookCall(action, agent, agent_pid(), session_id=event.session_id, event=event.event,
                    tool=event.tool_name, files=tuple(event.files), payload=event.raw)  # fmt: skip
    return call, event


def run_hook(project: str | None, action: str, agent_opt: str | None, raw: bytes) -> str:
    """Do what ``action`` asks (one ``Memory.hook`` call); the line for stdout (``""``: none)."""
    from toon_memory.model.checks import check_choice

    check_choice(action, "action", HOOK_ACTIONS)
    call, event = _hook_call(action, agent_opt, raw)
    started = _memory(project, event).hook(call)
    if started is None:
        return ""
    from toon_memory.adapters.installer.replies import context_reply
    from toon_memory.render.sessions import hook_started

    return context_reply(call.agent, event.event or "SessionStart", hook_started(started, {}).text)
