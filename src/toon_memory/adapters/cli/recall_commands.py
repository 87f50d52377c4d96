"""Recall CLI commands: recall, search, smart-recall, suggest, path, primer.

Invariant: each is built from its MCP tool's declaration
(``adapters.server.tools.recall``, by ``cli.declared``): the same
parameters, the same ``Memory`` call and the same renderer; ``--json``
prints the structured result (``{"results": [...]}`` in rank order),
otherwise the token-lean text. Collected in ``COMMANDS`` for ``cli.group``.
"""

from __future__ import annotations

import click

from toon_memory.adapters.cli.declared import commands
from toon_memory.adapters.server.tools.recall import RECALL_TOOLS

COMMANDS: tuple[click.Command, ...] = commands(RECALL_TOOLS)
