"""Windsurf: user-scope only, ``~/.codeium/windsurf/mcp_config.json`` ``mcpServers``.

Sources: docs.windsurf.com/windsurf/cascade/mcp (quoted by agents.md). A
project ``.windsurf/mcp_config.json`` is claimed only by third parties
(agents.md: unverified) and vendor docs document none, so the project scope
is not offered. Instructions: a block in ``memories/global_rules.md``.
"""

from toon_memory.adapters.installer.places import home, project
from toon_memory.adapters.installer.shapes import http_entry, mcp_entry, stdio
from toon_memory.adapters.installer.spec import Agent, Block, Setup

#: Remote servers use ``serverUrl`` (not Cursor's ``url``) and ``${env:VAR}`` in headers.
REMOTE = http_entry("${env:VAR}", "serverUrl")

AGENT = Agent(
    id="windsurf",
    title="Windsurf",
    aliases=("codeium",),
    detect=(home(".codeium/windsurf"), project(".windsurf")),
    binaries=("windsurf",),
    project=None,
    scope_note="Windsurf has no project-scope MCP config; install it with `init global`",
    user=Setup(
        (
            mcp_entry(
                (home(".codeium/windsurf/mcp_config.json"),),
                "json",
                ("mcpServers",),
                stdio,
                remote=REMOTE,
            ),
            Block((home(".codeium/windsurf/memories/global_rules.md"),)),
        )
    ),
)
