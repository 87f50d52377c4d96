"""Kilo Code (v7+, an OpenCode fork): ``mcp.<name>`` in ``kilo.jsonc``.

Sources: Kilo-Org/kilocode packages/kilo-docs/pages/automate/mcp/using-in-kilo-code.md,
kilo.ai/docs/customize/custom-rules (agents.md). Legacy ``mcp_settings.json``
is silently ignored after v7.0.33 (Kilo #6481), so only the v7 file is
written. The plugin folder name is unverified (``plugin/`` vs ``plugins/``):
no plugin is written. Project file: an existing ``kilo.json`` or
``.kilo/kilo.jsonc`` is used, else ``kilo.jsonc``. A team server only in the
user scope: Kilo 7.7 drops a project file's remote entry whose headers read an
environment variable (``kilo mcp list``: "No MCP servers configured"; the same
entry in the user file connects), so ``init local --server`` skips Kilo.
"""

from toon_memory.adapters.installer.places import project, xdg
from toon_memory.adapters.installer.shapes import mcp_entry, opencode_local, opencode_remote
from toon_memory.adapters.installer.spec import Agent, Block, Setup

AGENT = Agent(
    id="kilo",
    title="Kilo Code",
    aliases=("kilocode", "kilo-code"),
    detect=(
        project("kilo.jsonc"),
        project("kilo.json"),
        project(".kilo"),
        project(".kilocode"),
        xdg("kilo"),
    ),
    binaries=("kilo", "kilocode"),
    no_remote="Kilo ignores a project file's remote entry whose headers read an environment "
    "variable; point it at the team server with `init global --server`",
    project=Setup(
        (
            mcp_entry(
                (project("kilo.jsonc"), project("kilo.json"), project(".kilo/kilo.jsonc")),
                "jsonc",
                ("mcp",),
                opencode_local,
            ),
            Block((project("AGENTS.md"),)),
        )
    ),
    user=Setup(
        (
            mcp_entry(
                (xdg("kilo/kilo.jsonc"), xdg("kilo/kilo.json")),
                "jsonc",
                ("mcp",),
                opencode_local,
                remote=opencode_remote,
            ),
        )
    ),
)
