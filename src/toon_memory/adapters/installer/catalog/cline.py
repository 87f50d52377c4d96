"""Cline: user-scope only, ``cline_mcp_settings.json`` of every editor that hosts it.

Sources: docs.cline.bot/mcp/configuring-mcp-servers; cline/cline #13596,
#14121 (no project-level MCP). The extension's globalStorage folder differs
per host editor (Code, Code - Insiders, Cursor, Windsurf, VSCodium), so the
entry is written to every one that exists (VS Code's when none does), and
to the CLI's ``~/.cline/data/settings`` when that exists. We chose the CLI
path of the Cline docs over gaal's ``~/.cline/mcp.json`` (agents.md:
conflict) because it is the vendor's. Cline starts servers with cwd ``/``:
a user-scope server finds no project there (see the report for the lead).
"""

from toon_memory.adapters.installer.places import appdata, home
from toon_memory.adapters.installer.shapes import mcp_entry
from toon_memory.adapters.installer.spec import Agent, OwnedFile, Setup
from toon_memory.adapters.installer.texts import plain_rule

_STORAGE = "User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json"
FILES = (
    appdata("Code/" + _STORAGE),
    appdata("Code - Insiders/" + _STORAGE),
    appdata("Cursor/" + _STORAGE),
    appdata("Windsurf/" + _STORAGE),
    appdata("VSCodium/" + _STORAGE),
    home(".cline/data/settings/cline_mcp_settings.json"),
)


def cline_entry(argv: list[str]) -> dict[str, object]:
    return {"command": argv[0], "args": argv[1:], "disabled": False, "autoApprove": []}


AGENT = Agent(
    id="cline",
    no_remote="Cline documents no environment variable in a remote server's headers",
    title="Cline",
    detect=(
        appdata("Code/User/globalStorage/saoudrizwan.claude-dev"),
        home(".cline"),
        home("Documents/Cline"),
    ),
    binaries=("cline",),
    project=None,
    scope_note="Cline has no project-scope MCP config; install it with `init global`",
    user=Setup(
        (
            mcp_entry(FILES, "json", ("mcpServers",), cline_entry, every=True),
            OwnedFile(home("Documents/Cline/Rules/toon-memory.md"), plain_rule),
        )
    ),
)
