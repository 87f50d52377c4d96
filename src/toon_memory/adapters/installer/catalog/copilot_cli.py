"""GitHub Copilot CLI (``copilot``): ``mcpServers`` in ``.github/mcp.json`` / ``~/.copilot/mcp-config.json``.

Sources: the program itself (``copilot mcp --help`` 1.0: user
``~/.copilot/mcp-config.json``, workspace ``.mcp.json`` or ``.github/mcp.json``;
``copilot mcp add`` writes ``{type: local, command, args, tools: ["*"]}``).
It does not read ``.vscode/mcp.json`` (that is VS Code's). Chosen: the project
entry goes to ``.github/mcp.json`` so it never shares ``.mcp.json`` with
Claude Code (uninstalling one would take the other's entry). Workspace
servers load only in a folder the user trusted when Copilot asked.
``$COPILOT_HOME`` replaces ``~/.copilot``.
"""

from typing import Any

from toon_memory.adapters.installer.places import Place, home, project
from toon_memory.adapters.installer.shapes import http_entry, mcp_entry
from toon_memory.adapters.installer.spec import Agent, Block, Setup


def copilot_local(argv: list[str]) -> dict[str, Any]:
    return {"type": "local", "command": argv[0], "args": argv[1:], "tools": ["*"]}


#: ``copilot mcp add --transport http`` writes ``type: http``; ``${VAR}`` is expanded in headers.
REMOTE = http_entry("${VAR}", type="http", tools=["*"])


def _user(rel: str) -> Place:
    return home(".copilot/" + rel, env="COPILOT_HOME", env_part=".copilot")


TRUST = ("Copilot CLI loads .github/mcp.json only in a folder you trusted: answer its "
         "trust question the first time you start `copilot` here.")  # fmt: skip

AGENT = Agent(
    id="copilot-cli",
    title="Copilot CLI",
    aliases=("copilot", "github-copilot-cli"),
    detect=(home(".copilot"),),
    binaries=("copilot",),
    project=Setup(
        (
            mcp_entry(
                (project(".github/mcp.json"),),
                "json",
                ("mcpServers",),
                copilot_local,
                remote=REMOTE,
            ),
            Block((project(".github/copilot-instructions.md"),)),
        ),
        notes=(TRUST,),
    ),
    user=Setup(
        (
            mcp_entry(
                (_user("mcp-config.json"),), "json", ("mcpServers",), copilot_local, remote=REMOTE
            ),
            Block((_user("copilot-instructions.md"),)),
        )
    ),
)
