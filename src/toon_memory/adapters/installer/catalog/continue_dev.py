"""Continue: a block file ``mcpServers/toon-memory.yaml`` (project ``.continue/``, user ``~/.continue/``).

Sources: continuedev/continue docs/customize/deep-dives/mcp.mdx (block files
with ``name``/``version``/``schema: v1`` and an ``mcpServers`` YAML list;
``~/.continue/mcpServers/`` is loaded too) and /deep-dives/rules. Chosen: a
block file we own in both scopes instead of editing ``~/.continue/config.yaml``:
creating config.yaml beside a legacy config.json would hide the user's
config.json (YAML wins), and a file of our own leaves theirs untouched.
Hooks: the ``cn`` hooks are declared but never dispatched (corveil/crow #857).
The target is the IDE extension: the ``cn`` CLI (1.5) never loads these block
files (it reads ``~/.continue/config.yaml`` or ``--config``), so the agent is
not detected through the ``cn`` program and init says so.
"""

from toon_memory.adapters.installer.places import home, project
from toon_memory.adapters.installer.spec import Agent, OwnedFile, Setup
from toon_memory.adapters.installer.texts import continue_block, continue_rule

CN_NOTE = ("for the Continue IDE extension (Agent mode only); the `cn` CLI does not read "
           "these files: point it at them with `cn --config` or add the server to "
           "~/.continue/config.yaml yourself.")  # fmt: skip

AGENT = Agent(
    id="continue",
    no_remote="Continue takes remote headers from its own secrets (${{ secrets.X }}), not from an environment variable",
    title="Continue",
    aliases=("continue-dev", "continuedev"),
    detect=(project(".continue"), home(".continue")),
    project=Setup(
        (
            OwnedFile(
                project(".continue/mcpServers/toon-memory.yaml"), continue_block, "MCP block file"
            ),
            OwnedFile(project(".continue/rules/toon-memory.md"), continue_rule),
        ),
        notes=(CN_NOTE,),
    ),
    user=Setup(
        (
            OwnedFile(
                home(".continue/mcpServers/toon-memory.yaml"), continue_block, "MCP block file"
            ),
            OwnedFile(home(".continue/rules/toon-memory.md"), continue_rule),
        ),
        notes=(CN_NOTE,),
    ),
)
