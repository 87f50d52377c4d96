"""The security commands: encrypt, decrypt and the secrets vault.

Invariant: each is built from its MCP tool's declaration
(``adapters.server.tools.security``, by ``cli.declared``): one
``Memory.security`` call plus the shared renderer (``render.security``),
listed in ``COMMANDS`` and added to the group by ``cli.group``; every
command takes ``--json``. A secret value comes from ``--value`` only (stdin
is never read, so no call can block on it). Importing this module loads
click and the pure tool data, nothing of the core.
"""

from __future__ import annotations

import click

from toon_memory.adapters.cli.declared import commands
from toon_memory.adapters.server.tools.security import SECURITY

COMMANDS: tuple[click.Command, ...] = commands(SECURITY)
