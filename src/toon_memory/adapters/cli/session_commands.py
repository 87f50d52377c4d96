"""The session commands: active sessions, merged observations, captured activity, hooks.

Invariant: each of ``sessions``, ``merge-sessions`` and ``captured`` is one
``Memory.sessions`` call plus the renderer the MCP tool uses (``--json``
prints its data); ``hook`` (``cli.hook_command``) is what agents' hooks run.
All are listed in ``COMMANDS`` and added to the group by ``cli.main``;
choices are the core's constants.
"""

from __future__ import annotations

import os

import click

from toon_memory.adapters.cli.hook_command import hook
from toon_memory.adapters.cli.invocation import Context, handles_errors, json_option, pass_ctx, show
from toon_memory.model.entry import CAPTURED_ACTIONS


@click.command()
@click.option("--conflicts-only", is_flag=True, help="Only the soft conflicts.")
@json_option
@pass_ctx
@handles_errors
def sessions(ctx: Context, conflicts_only: bool, as_json: bool) -> None:
    """Active agent sessions (agent, branch, files, last seen) and soft conflicts.

    The session named by TOON_MEMORY_SESSION is marked as you.
    """
    from toon_memory.render.sessions import sessions_listed

    part = ctx.memory.sessions
    part.current = os.environ.get("TOON_MEMORY_SESSION", "").strip()
    show(sessions_listed(part.list(conflicts_only), {}), as_json)


@click.command("merge-sessions")
@click.argument("file")
@click.option("--promote", is_flag=True, help="Save each merged observation as a memory.")
@json_option
@pass_ctx
@handles_errors
def merge_sessions(ctx: Context, file: str, promote: bool, as_json: bool) -> None:
    """Merge what parallel sessions observed about FILE (near duplicates folded)."""
    from toon_memory.render.sessions import sessions_merged

    show(sessions_merged(ctx.memory.sessions.merge(file, promote), {}), as_json)


@click.command()
@click.argument("action", type=click.Choice(CAPTURED_ACTIONS), default="list")
@click.option("--limit", type=int, default=50, show_default=True, help="Newest events to list.")
@json_option
@pass_ctx
@handles_errors
def captured(ctx: Context, action: str, limit: int, as_json: bool) -> None:
    """Activity captured by hooks (capture on in config.json): list, or clear the log."""
    from toon_memory.render.sessions import captured_shown

    show(captured_shown(ctx.memory.sessions.captured(action, limit), {}), as_json)


COMMANDS: tuple[click.Command, ...] = (sessions, merge_sessions, captured, hook)
