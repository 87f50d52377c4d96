"""The curation commands: consolidate, reflect, promote, compress.

Invariant: each is one ``Memory.curation`` call plus the renderer its MCP
tool uses (``render.curation``), built from its tool's declaration
(``cli.declared``), listed in ``COMMANDS`` and added to the group by
``cli.group``; a change needs ``--apply`` (dry run otherwise) or, for
compress, ``--summary``. Importing this module loads click and the pure
tool data, nothing of the core.
"""

from __future__ import annotations

import click

from toon_memory.adapters.cli.declared import commands
from toon_memory.adapters.server.tools.curation import CURATION

COMMANDS: tuple[click.Command, ...] = commands(CURATION)
