"""The context commands: ``toon-memory context brief|generate|diff|focus|health|export``.

Invariant: each is one ``Memory.context`` call plus the renderer its MCP tool
uses (``render.context``), listed in ``COMMANDS`` and added to the group by
``cli.main``; every one takes ``--budget-tokens`` (0 = no limit) and
``--json``. The core and the renderers are imported only when a command runs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from toon_memory.adapters.cli.invocation import Context, handles_errors, json_option, pass_ctx, show

#: ``context.limits.DEFAULT_BUDGET_TOKENS`` (a test ties them; this module stays import-light).
DEFAULT_BUDGET = 1500

budget_option = click.option(
    "--budget-tokens", type=int, default=DEFAULT_BUDGET, show_default=True,
    help="Most tokens of output; the lowest-value lines are cut first (0 = no limit).",
)  # fmt: skip


def _show(ctx: Context, method: str, render: str, as_json: bool, **call: Any) -> None:
    from importlib import import_module

    found: Callable[..., Any] = getattr(ctx.memory.context, method)
    renderer = getattr(import_module("toon_memory.render.briefs"), render)
    show(renderer(found(**call), call), as_json)


@click.group()
def context() -> None:
    """One-call briefs: brief, generate, diff, focus, health, export."""


@context.command()
@budget_option
@json_option
@pass_ctx
@handles_errors
def brief(ctx: Context, budget_tokens: int, as_json: bool) -> None:
    """Memory, active sessions and health in one compact brief."""
    _show(ctx, "brief", "briefed", as_json, budget_tokens=budget_tokens)


@context.command()
@budget_option
@json_option
@pass_ctx
@handles_errors
def generate(ctx: Context, budget_tokens: int, as_json: bool) -> None:
    """Full project briefing: project, git, memory, sessions."""
    _show(ctx, "generate", "generated", as_json, budget_tokens=budget_tokens)


@context.command()
@click.option("--since", default=None, help="24h, 7d or YYYY-MM-DD (default: the last session).")
@budget_option
@json_option
@pass_ctx
@handles_errors
def diff(ctx: Context, since: str | None, budget_tokens: int, as_json: bool) -> None:
    """What changed since the last session: commits, files, memories, sessions."""
    _show(ctx, "diff", "diffed", as_json, since=since, budget_tokens=budget_tokens)


@context.command()
@click.argument("query", nargs=-1, required=True)
@budget_option
@json_option
@pass_ctx
@handles_errors
def focus(ctx: Context, query: tuple[str, ...], budget_tokens: int, as_json: bool) -> None:
    """What is relevant to QUERY (a task, symbol or file): memories, files, callers, tests."""
    _show(ctx, "focus", "focused", as_json, query=" ".join(query), budget_tokens=budget_tokens)


@context.command()
@budget_option
@json_option
@pass_ctx
@handles_errors
def health(ctx: Context, budget_tokens: int, as_json: bool) -> None:
    """Health score 0-100 and the findings behind it."""
    _show(ctx, "health", "audited", as_json, budget_tokens=budget_tokens)


@context.command()
@click.option("--compact", is_flag=True, help="One line per entry.")
@budget_option
@json_option
@pass_ctx
@handles_errors
def export(ctx: Context, compact: bool, budget_tokens: int, as_json: bool) -> None:
    """The memory as markdown for a system prompt, best entries first."""
    _show(ctx, "export", "exported", as_json, compact=compact, budget_tokens=budget_tokens)


COMMANDS: tuple[click.Command, ...] = (context,)
