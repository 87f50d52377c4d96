"""Continue: a block file ``mcpServers/toon-memory.yaml`` (project ``.continue/``, user ``~/.continue/``).

Sources: continuedev/continue docs/customize/deep-dives/mcp.mdx (block files
with ``name``/``version``/``schema: v1`` and an ``mcpServers`` YAML list;
``~/.continue/mcpServers/`` is loaded too) and /deep-dives/rules. Chosen: a
block file we own in both scopes instead of editing ``~/.continue/config.yaml``:
creating config.yaml beside a legacy config.json would hide the user's
config.json (YAML wins), and a file of our own leaves theirs untouched.
Hooks: the ``cn`` hooks are declared but never dispatched (corveil/crow #857).
"""

from toon_memory.adapters.installer.places import home, project
from toon_memory.adapters.installer.spec import Agent, OwnedFile, Setup
from toon_memory.adapters.installer.texts import continue_block, continue_rule

AGENT = Agent(
    id="continue",
    title="Continue",
    aliases=("continue-dev", "continuedev"),
    detect=(project(".continue"), home(".continue")),
    binaries=("cn",),
    project=Setup(
        (
            OwnedFile(
                project(".continue/mcpServers/toon-memory.yaml"), continue_block, "MCP block file"
            ),
            OwnedFile(project(".continue/rules/toon-memory.md"), continue_rule),
        ),
        notes=("Continue offers MCP tools in Agent mode only.",),
    ),
    user=Setup(
        (
            OwnedFile(
                home(".continue/mcpServers/toon-memory.yaml"), continue_block, "MCP block file"
            ),
            OwnedFile(home(".continue/rules/toon-memory.md"), continue_rule),
        )
    ),
)
