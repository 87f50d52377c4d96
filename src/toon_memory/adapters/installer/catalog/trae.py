"""Trae: ``.trae/mcp.json`` ``mcpServers`` (project MCP toggle must be on); project rules.

Sources: docs.trae.ai/ide/add-mcp-servers; volcengine TRAE CN docs (agents.md).
User file: agents.md marks it unverified (app user folder ``Trae/User/mcp.json``
vs gaal's ``~/.cursor/mcp.json``). We write ``<app data>/Trae/User/mcp.json``:
it is the file behind Trae's "Raw config" in the third-party installers that
were checked against a real install, and Trae reusing Cursor's file would
already be covered by the Cursor entry. The stdio ``command`` must not contain
spaces (docs); a path with spaces is reported as a note.
"""

from toon_memory.adapters.installer.places import appdata, home, project
from toon_memory.adapters.installer.shapes import mcp_entry, stdio
from toon_memory.adapters.installer.spec import Agent, Block, Setup

AGENT = Agent(
    id="trae",
    no_remote="Trae documents no environment variable in a remote server's headers",
    title="Trae",
    aliases=("trae-ai",),
    detect=(project(".trae"), appdata("Trae"), home(".trae")),
    binaries=("trae",),
    project_args=("--project", "${workspaceFolder}"),
    project=Setup(
        (
            mcp_entry((project(".trae/mcp.json"),), "json", ("mcpServers",), stdio),
            Block((project(".trae/rules/project_rules.md"),)),
        ),
        notes=("Trae reads .trae/mcp.json only with Settings > MCP > Enable Project MCP on.",),
    ),
    user=Setup((mcp_entry((appdata("Trae/User/mcp.json"),), "json", ("mcpServers",), stdio),)),
)
