"""OpenCode: ``mcp.<name>`` with a command array; hooks through a plugin file.

Sources: opencode.ai/docs/mcp-servers, /docs/config, /docs/plugins (V1 docs,
re-read 2026 through the search tool: project plugins in
``.opencode/plugins/``, global in ``~/.config/opencode/plugins/``).
Chosen: the V1 shape ``mcp.<name>`` (agents.md marks V1 vs V2
``mcp.servers.<name>`` unverified per build; the V1→V2 migration page says
V1 config stays accepted, so V1 works on both). No ``timeout`` key: OpenCode
1.18 and Kilo 7.7 give a local server 30 s to connect (the docs still say 5 s),
ample for ours (2-4 s on a loaded machine). Never a ``hooks`` key (the
strict schema rejects it); SessionStart/PostToolUse/Stop go through the plugin.
"""

from toon_memory.adapters.installer.places import project, xdg
from toon_memory.adapters.installer.shapes import mcp_entry, opencode_local, opencode_remote
from toon_memory.adapters.installer.spec import Agent, Block, OwnedFile, Setup
from toon_memory.adapters.installer.texts import opencode_plugin

AGENT = Agent(
    id="opencode",
    title="OpenCode",
    aliases=("open-code",),
    detect=(
        project("opencode.json"),
        project("opencode.jsonc"),
        project(".opencode"),
        xdg("opencode"),
    ),
    binaries=("opencode",),
    project=Setup(
        (
            mcp_entry(
                (project("opencode.json"), project("opencode.jsonc")),
                "jsonc",
                ("mcp",),
                opencode_local,
                remote=opencode_remote,
            ),
            OwnedFile(
                project(".opencode/plugins/toon-memory.ts"), opencode_plugin, "plugin (hooks)"
            ),
            Block((project("AGENTS.md"),)),
        )
    ),
    user=Setup(
        (
            mcp_entry(
                (xdg("opencode/opencode.json"), xdg("opencode/opencode.jsonc")),
                "jsonc",
                ("mcp",),
                opencode_local,
                remote=opencode_remote,
            ),
            OwnedFile(xdg("opencode/plugins/toon-memory.ts"), opencode_plugin, "plugin (hooks)"),
            Block((xdg("opencode/AGENTS.md"),)),
        )
    ),
)
