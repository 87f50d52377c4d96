"""``toon-memory state``: SESSION-STATE.json, simple-local-memory's hot tier.

Invariant: each subcommand is one ``Memory.session_state`` call plus the
shared renderer, exactly what the MCP ``memory_state`` tool runs.
"""

from __future__ import annotations

import click

from toon_memory.adapters.cli.invocation import (
    ALLOW_SECRETS_HELP,
    Invocation,
    handles_errors,
    json_option,
    pass_ctx,
    show,
)
from toon_memory.render import results as render


@click.group()
def state() -> None:
    """Hot memory: SESSION-STATE.json at the workspace root."""


def _run(ctx: Invocation, as_json: bool, action: str, field: str | None = None,
         values: tuple[str, ...] | None = None, allow_secrets: bool = False) -> None:  # fmt: skip
    listed = list(values) if values is not None else None
    data = ctx.memory.session_state(action, field, listed, allow_secrets)
    show(render.session_state(data, {}), as_json)


@state.command("show")
@json_option
@pass_ctx
@handles_errors
def state_show(ctx: Invocation, as_json: bool) -> None:
    """Print the session state."""
    _run(ctx, as_json, "show")


@state.command("set")
@click.argument("field")
@click.argument("values", nargs=-1, required=True)
@click.option("--allow-secrets", is_flag=True, help=ALLOW_SECRETS_HELP)
@json_option
@pass_ctx
@handles_errors
def state_set(
    ctx: Invocation, field: str, values: tuple[str, ...], allow_secrets: bool, as_json: bool
) -> None:
    """Set current_task, or replace a list field with VALUES."""
    _run(ctx, as_json, "set", field, values, allow_secrets)


@state.command("add")
@click.argument("field")
@click.argument("values", nargs=-1, required=True)
@click.option("--allow-secrets", is_flag=True, help=ALLOW_SECRETS_HELP)
@json_option
@pass_ctx
@handles_errors
def state_add(
    ctx: Invocation, field: str, values: tuple[str, ...], allow_secrets: bool, as_json: bool
) -> None:
    """Append VALUES to key_context, pending_actions or recent_decisions."""
    _run(ctx, as_json, "add", field, values, allow_secrets)


@state.command("clear")
@click.argument("fields", nargs=-1)
@json_option
@pass_ctx
@handles_errors
def state_clear(ctx: Invocation, fields: tuple[str, ...], as_json: bool) -> None:
    """Clear the named fields (all documented fields when none are named)."""
    _run(ctx, as_json, "clear", None, fields or None)


COMMANDS: tuple[click.Command, ...] = (state,)
