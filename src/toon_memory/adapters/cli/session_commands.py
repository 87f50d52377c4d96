"""The session commands: active sessions, merged observations, captured activity, hooks.

Invariant: each of ``sessions``, ``merge-sessions`` and ``captured`` is one
``Memory.sessions`` call plus the renderer the MCP tool uses (``--json``
prints its data); ``merge-sessions`` and ``captured`` are built from their
tools' declarations (``cli.declared``), ``sessions`` is written here (it
names this terminal's session, ``TOON_MEMORY_SESSION``); ``hook``
(``cli.hook_command``) is what agents' hooks run. All are listed in
``COMMANDS`` and added to the group by ``cli.group``.
"""

from __future__ import annotations

import os

import click

from toon_memory.adapters.cli.declared import commands
from toon_memory.adapters.cli.hook_command import hook
from toon_memory.adapters.cli.invocation import (
    Invocation,
    handles_errors,
    json_option,
    pass_ctx,
    show,
)
from toon_memory.adapters.server.tools.sessions import SESSIONS


@click.command()
@click.option("--conflicts-only", is_flag=True, help="Only the soft conflicts.")
@json_option
@pass_ctx
@handles_errors
def sessions(ctx: Invocation, conflicts_only: bool, as_json: bool) -> None:
    """Active agent sessions (agent, branch, files, last seen) and soft conflicts.

    The session named by TOON_MEMORY_SESSION is marked as you.
    """
    from toon_memory.render.sessions import sessions_listed

    part = ctx.memory.sessions
    part.current = os.environ.get("TOON_MEMORY_SESSION", "").strip()
    show(sessions_listed(part.list(conflicts_only), {}), as_json)


COMMANDS: tuple[click.Command, ...] = (sessions, *commands(SESSIONS), hook)
