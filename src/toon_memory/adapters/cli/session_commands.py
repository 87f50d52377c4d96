"""The session commands: active sessions, merged observations, captured activity, hooks.

Invariant: each of ``sessions``, ``merge-sessions`` and ``captured`` is one
``Memory.sessions`` call plus the renderer the MCP tool uses (``--json``
prints its data), built from its tool's declaration (``cli.declared``;
``sessions`` names this terminal's session from ``TOON_MEMORY_SESSION``); ``hook``
(``cli.hook_command``) is what agents' hooks run. All are listed in
``COMMANDS`` and added to the group by ``cli.group``.
"""

from __future__ import annotations

import click

from toon_memory.adapters.cli.declared import commands
from toon_memory.adapters.cli.hook_command import hook
from toon_memory.adapters.server.tools.sessions import SESSIONS

COMMANDS: tuple[click.Command, ...] = (*commands(SESSIONS), hook)
