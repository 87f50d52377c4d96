"""Kiro (IDE and CLI): ``.kiro/settings/mcp.json`` ``mcpServers``; a steering file.

Sources: kiro.dev/docs/mcp/configuration, /docs/steering (agents.md,
verified). CLI hooks live in custom-agent files that apply only when that
agent is active (scope unverified), so none are written. Steering:
``toon-memory.md`` with ``inclusion: always``.
"""

from toon_memory.adapters.installer.places import home, project
from toon_memory.adapters.installer.shapes import mcp_entry
from toon_memory.adapters.installer.spec import Agent, OwnedFile, Setup
from toon_memory.adapters.installer.texts import kiro_steering


def kiro_entry(argv: list[str]) -> dict[str, object]:
    return {"command": argv[0], "args": argv[1:], "disabled": False}


AGENT = Agent(
    id="kiro",
    no_remote="Kiro expands environment variables only in a server's env, not in remote headers",
    title="Kiro",
    aliases=("kiro-cli",),
    detect=(project(".kiro"), home(".kiro")),
    binaries=("kiro", "kiro-cli"),
    project=Setup(
        (
            mcp_entry((project(".kiro/settings/mcp.json"),), "json", ("mcpServers",), kiro_entry),
            OwnedFile(project(".kiro/steering/toon-memory.md"), kiro_steering, "steering file"),
        )
    ),
    user=Setup(
        (
            mcp_entry((home(".kiro/settings/mcp.json"),), "json", ("mcpServers",), kiro_entry),
            OwnedFile(home(".kiro/steering/toon-memory.md"), kiro_steering, "steering file"),
        )
    ),
)
