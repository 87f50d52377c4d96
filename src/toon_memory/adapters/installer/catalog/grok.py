"""Grok CLI (xAI Grok Build): ``[mcp_servers.toon-memory]`` in ``.grok/config.toml``.

Sources: docs.x.ai/build/features/mcp-servers, /build/settings;
shuv1337/grok-build user-guide 07-mcp-servers.md, 12-project-rules.md
(agents.md, verified). ``$GROK_HOME`` replaces ``~/.grok``. Hook stdout is
ignored for SessionStart/PostToolUse, so no hooks. Grok also reads
``.mcp.json`` and Cursor's files; config.toml has priority over them for
the same server name, so installing Claude Code or Cursor too does not
start two servers under one name.
"""

from toon_memory.adapters.installer.places import home, project
from toon_memory.adapters.installer.shapes import http_entry, mcp_entry, stdio
from toon_memory.adapters.installer.spec import Agent, Block, OwnedFile, Setup
from toon_memory.adapters.installer.texts import plain_rule

#: Remote: ``url`` and ``headers``, ``${VAR}`` expanded in both (agents.md, not checked here).
REMOTE = http_entry("${VAR}")

AGENT = Agent(
    id="grok",
    title="Grok CLI",
    aliases=("grok-build", "grok-cli", "xai"),
    detect=(project(".grok"), home(".grok")),
    binaries=("grok",),
    project=Setup(
        (
            mcp_entry(
                (project(".grok/config.toml"),), "toml", ("mcp_servers",), stdio, remote=REMOTE
            ),
            Block((project("AGENTS.md"),)),
        ),
        notes=("Grok loads a project's .grok/config.toml only in a trusted folder.",),
    ),
    user=Setup(
        (
            mcp_entry(
                (home(".grok/config.toml", env="GROK_HOME", env_part=".grok"),),
                "toml",
                ("mcp_servers",),
                stdio,
                remote=REMOTE,
            ),
            OwnedFile(
                home(".grok/rules/toon-memory.md", env="GROK_HOME", env_part=".grok"), plain_rule
            ),
        )
    ),
)
