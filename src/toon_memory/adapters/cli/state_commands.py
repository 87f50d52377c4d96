"""``toon-memory state``: SESSION-STATE.json, simple-local-memory's hot tier.

Invariant: each subcommand (show, set, add, clear) is built from the
``memory_state`` declaration with its ``action`` fixed
(``tools.core.STATE_COMMANDS``, ``cli.declared``), so it runs exactly what
the MCP tool runs: one ``Memory.session_state`` call plus the shared
renderer. Importing this module loads click and nothing of the core.
"""

from __future__ import annotations

import click

from toon_memory.adapters.cli.declared import commands
from toon_memory.adapters.server.tools.core import STATE_COMMANDS


@click.group()
def state() -> None:
    """Hot memory: SESSION-STATE.json at the workspace root."""


for _command in commands(STATE_COMMANDS):
    state.add_command(_command)

COMMANDS: tuple[click.Command, ...] = (state,)
