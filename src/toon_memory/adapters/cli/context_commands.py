"""The context commands: ``toon-memory context brief|generate|diff|focus|health|export``.

Invariant: each is built from its MCP tool's declaration
(``adapters.server.tools.context``, by ``cli.declared``): one
``Memory.context`` call plus the renderer the tool uses (``render.briefs``);
every one takes ``--budget-tokens`` (0 = no limit; the default shown is the
method's) and ``--json``. Listed in ``COMMANDS`` and added to the group by
``cli.group``. The core and the renderers are imported only when a command runs.
"""

from __future__ import annotations

import click

from toon_memory.adapters.cli.declared import commands
from toon_memory.adapters.server.tools.context import CONTEXT


@click.group()
def context() -> None:
    """One-call briefs: brief, generate, diff, focus, health, export."""


for _command in commands(CONTEXT):
    context.add_command(_command)

COMMANDS: tuple[click.Command, ...] = (context,)
