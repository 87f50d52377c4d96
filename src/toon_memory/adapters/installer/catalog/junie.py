"""JetBrains Junie: ``.junie/mcp/mcp.json`` ``mcpServers``; ``.junie/guidelines.md``.

Sources: jetbrains.com/help/junie/model-context-protocol-mcp.html and
/customize-guidelines.html; the file paths via third parties quoting
junie.jetbrains.com/docs/junie-cli-mcp-configuration.html (agents.md:
partially verified; laravel/boost and agent-config agree on
``.junie/mcp/mcp.json``, so we use it). Entry without ``type``/``disabled``.
Hooks are CLI-only Early Access and not written.
"""

from toon_memory.adapters.installer.places import home, project
from toon_memory.adapters.installer.shapes import mcp_entry, stdio
from toon_memory.adapters.installer.spec import Agent, Block, Setup

AGENT = Agent(
    id="junie",
    no_remote="Junie runs stdio MCP servers only",
    title="Junie",
    aliases=("jetbrains", "jetbrains-junie"),
    detect=(project(".junie"), home(".junie")),
    binaries=("junie",),
    project=Setup(
        (
            mcp_entry((project(".junie/mcp/mcp.json"),), "json", ("mcpServers",), stdio),
            Block((project(".junie/guidelines.md"),)),
        )
    ),
    user=Setup((mcp_entry((home(".junie/mcp/mcp.json"),), "json", ("mcpServers",), stdio),)),
)
