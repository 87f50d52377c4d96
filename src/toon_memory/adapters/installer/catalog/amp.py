"""Amp (Sourcegraph): the literal dotted key ``"amp.mcpServers"`` in settings.json.

Sources: ampcode.com/manual (via agents.md; workspace ``.amp/settings.json``
merged with ``~/.config/amp/settings.json``). The key is one JSON key with a
dot, never a nested ``amp`` object. No hooks (legacy ``amp.hooks`` has no
session events; plugins need ``PLUGINS=all``).
"""

from toon_memory.adapters.installer.places import home, project, xdg
from toon_memory.adapters.installer.shapes import http_entry, mcp_entry, stdio
from toon_memory.adapters.installer.spec import Agent, Block, Setup

#: Remote servers are ``{url, headers}`` with ``${VAR}`` interpolation (agents.md, not checked here).
REMOTE = http_entry("${VAR}")

AGENT = Agent(
    id="amp",
    title="Amp",
    aliases=("ampcode", "sourcegraph-amp"),
    detect=(project(".amp"), xdg("amp"), home(".amp")),
    binaries=("amp",),
    project=Setup(
        (
            mcp_entry(
                (project(".amp/settings.json"),), "jsonc", ("amp.mcpServers",), stdio, remote=REMOTE
            ),
            Block((project("AGENTS.md"),)),
        ),
        notes=("Amp runs workspace MCP servers only after you approve them.",),
    ),
    user=Setup(
        (
            mcp_entry(
                (xdg("amp/settings.json"),), "jsonc", ("amp.mcpServers",), stdio, remote=REMOTE
            ),
            Block((xdg("amp/AGENTS.md"),)),
        )
    ),
)
