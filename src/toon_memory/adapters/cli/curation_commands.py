"""The curation commands: consolidate, reflect, promote, compress.

Invariant: each is one ``Memory.curation`` call plus the renderer its MCP
tool uses (``render.curation``), listed in ``COMMANDS`` and added to the
group by ``cli.main``; a change needs ``--apply`` (dry run otherwise) or,
for compress, ``--summary``. Importing this module loads click and nothing
of the core but ``model``.
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
from toon_memory.model.entry import CONSOLIDATE_MODES

APPLY_HELP = "Apply the changes (default: a dry run that only lists them)."


@click.command()
@click.option("--mode", type=click.Choice(CONSOLIDATE_MODES), default="identical",
              show_default=True, help="identical, similar (Jaccard > 0.5), low-quality, versions.")  # fmt: skip
@click.option("--apply", "apply_", is_flag=True, help=APPLY_HELP)
@click.option("--min-quality", type=float, default=None,
              help="low-quality: remove entries below this quality (0..1, default 0.3).")  # fmt: skip
@json_option
@pass_ctx
@handles_errors
def consolidate(
    ctx: Invocation, mode: str, apply_: bool, min_quality: float | None, as_json: bool
) -> None:
    """Remove duplicates, low-quality entries or older versions (soft, restorable)."""
    from toon_memory.render.curation import consolidated

    report = ctx.memory.curation.consolidate(mode, dry_run=not apply_, min_quality=min_quality)
    show(consolidated(report, {"mode": mode, "dry_run": not apply_}), as_json)


@click.command()
@click.option("--limit", "-n", type=int, default=20, show_default=True,
              help="Most entries to list.")  # fmt: skip
@json_option
@pass_ctx
@handles_errors
def reflect(ctx: Invocation, limit: int, as_json: bool) -> None:
    """Entries needing attention (stale, low quality, hubs), tag pairs, contradictions."""
    from toon_memory.render.curation import reflected

    show(reflected(ctx.memory.curation.reflect(limit), {"limit": limit}), as_json)


@click.command()
@click.option("--apply", "apply_", is_flag=True, help=APPLY_HELP)
@json_option
@pass_ctx
@handles_errors
def promote(ctx: Invocation, apply_: bool, as_json: bool) -> None:
    """Drafts (confidence <= 0.65) become full entries unless they duplicate one."""
    from toon_memory.render.curation import promoted

    report = ctx.memory.curation.promote(dry_run=not apply_)
    show(promoted(report, {"dry_run": not apply_}), as_json)


@click.command()
@click.argument("key")
@click.option("--summary", default=None, help="Replace the content (the old version is kept).")
@click.option("--timeout", type=click.FloatRange(min=0.1), default=None,
              help="Seconds a local claude/llm CLI may take (default 60).")  # fmt: skip
@click.option("--allow-secrets", is_flag=True, help=ALLOW_SECRETS_HELP)
@json_option
@pass_ctx
@handles_errors
def compress(
    ctx: Invocation, key: str, summary: str | None, timeout: float | None, allow_secrets: bool,
    as_json: bool,
) -> None:  # fmt: skip
    """Shorten an entry: without --summary, suggest one (local claude/llm CLI, else a prompt)."""
    from toon_memory.render.curation import compressed

    curation = ctx.memory.curation
    if timeout is not None:
        curation.llm_timeout = timeout
    result = curation.compress(key, summary, allow_secrets)
    show(compressed(result, {"key": key, "summary": summary}), as_json)


COMMANDS: tuple[click.Command, ...] = (consolidate, reflect, promote, compress)
