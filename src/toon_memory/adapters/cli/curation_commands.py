"""The curation commands: consolidate, reflect, promote, compress.

Invariant: each is one ``Memory.curation`` call plus the renderer its MCP
tool uses (``render.curation``), listed in ``COMMANDS`` and added to the
group by ``cli.group``; a change needs ``--apply`` (dry run otherwise) or,
for compress, ``--summary``. consolidate, reflect and promote are built from
their tools' declarations (``cli.declared``); compress is written here (its
``--timeout`` sets the part's LLM timeout, not a ``Memory`` parameter).
Importing this module loads click and nothing of the core.
"""

from __future__ import annotations

import click

from toon_memory.adapters.cli.declared import commands
from toon_memory.adapters.cli.invocation import (
    ALLOW_SECRETS_HELP,
    Invocation,
    handles_errors,
    json_option,
    pass_ctx,
    show,
)
from toon_memory.adapters.server.tools.curation import CURATION


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


COMMANDS: tuple[click.Command, ...] = (*commands(CURATION), compress)
