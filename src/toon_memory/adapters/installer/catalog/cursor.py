"""Cursor: ``.cursor/mcp.json`` / ``~/.cursor/mcp.json`` ``mcpServers``; a rule file.

Sources: cursor.com/docs/mcp (via agents.md, mostly verified). Cursor may
start servers with the home folder as cwd (code-review-graph #304), so the
project entry names ``--project``; we do not use the unverified ``cwd`` key.
Instructions: ``.cursor/rules/toon-memory.mdc`` with ``alwaysApply: true``
(user rules live in Cursor's settings UI, so the user scope has none).
"""

from toon_memory.adapters.installer.places import home, project
from toon_memory.adapters.installer.shapes import http_entry, mcp_entry, stdio
from toon_memory.adapters.installer.spec import Agent, OwnedFile, Setup
from toon_memory.adapters.installer.texts import cursor_rule

#: Remote servers are ``{url, headers}``; ``${env:VAR}`` per agents.md (not checked here).
REMOTE = http_entry("${env:VAR}")

AGENT = Agent(
    id="cursor",
    title="Cursor",
    detect=(project(".cursor"), home(".cursor")),
    binaries=("cursor", "cursor-agent"),
    project_args=("--project", "${workspaceFolder}"),
    project=Setup(
        (
            mcp_entry(
                (project(".cursor/mcp.json"),), "json", ("mcpServers",), stdio, remote=REMOTE
            ),
            OwnedFile(project(".cursor/rules/toon-memory.mdc"), cursor_rule),
        )
    ),
    user=Setup(
        (mcp_entry((home(".cursor/mcp.json"),), "json", ("mcpServers",), stdio, remote=REMOTE),)
    ),
)
