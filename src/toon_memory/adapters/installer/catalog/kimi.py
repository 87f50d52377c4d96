"""Kimi Code CLI: ``.kimi-code/mcp.json`` ``mcpServers``; AGENTS.md.

Sources: moonshotai.github.io/kimi-code (customization/mcp,
configuration/config-files) (agents.md, verified). ``$KIMI_CODE_HOME``
replaces ``~/.kimi-code``. The archived Kimi CLI's ``~/.kimi/mcp.json`` is
not written (Kimi Code migrates it). Hooks (``[[hooks]]`` in config.toml)
have no context channel and are not written. The global AGENTS.md is
unverified (agents.md: conflict), so the user scope has no block.
"""

from toon_memory.adapters.installer.places import home, project
from toon_memory.adapters.installer.shapes import mcp_entry, stdio
from toon_memory.adapters.installer.spec import Agent, Block, Setup

AGENT = Agent(
    id="kimi",
    no_remote="Kimi Code documents no environment variable in a remote server's headers",
    title="Kimi Code",
    aliases=("kimi-code", "kimi-cli", "moonshot"),
    detect=(project(".kimi-code"), home(".kimi-code"), home(".kimi")),
    binaries=("kimi", "kimi-code"),
    project=Setup(
        (
            mcp_entry((project(".kimi-code/mcp.json"),), "json", ("mcpServers",), stdio),
            Block((project("AGENTS.md"),)),
        ),
        notes=("Kimi Code applies a project's stdio servers only in a trusted repository.",),
    ),
    user=Setup(
        (
            mcp_entry(
                (home(".kimi-code/mcp.json", env="KIMI_CODE_HOME", env_part=".kimi-code"),),
                "json",
                ("mcpServers",),
                stdio,
            ),
        )
    ),
)
