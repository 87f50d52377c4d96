"""Gemini CLI: ``mcpServers`` and ``hooks`` in ``.gemini/settings.json``; GEMINI.md.

Sources: google-gemini/gemini-cli docs/tools/mcp-server.md,
docs/hooks/reference.md, docs/cli/gemini-md.md (agents.md, verified).
Gemini's events are not Claude's: the post-tool event is ``AfterTool`` and
there is no ``Stop``, so ``hook stop`` runs on ``SessionEnd``. Timeouts are
in milliseconds. The hooks enable flag differs per version (agents.md:
unverified); we write none and leave the user's setting alone. Folder trust
(``~/.gemini/trustedFolders.json``, read by ``trust.py``) gates every server.
The entry names ``timeout``: without one, ``gemini mcp list`` gives a stdio server
5 s to connect (a session gives it 10 min), and a busy machine starts ours slower,
so the list said "Disconnected" for a server that works. 600000 ms is the session
default, so only ``mcp list`` waits longer (checked against Gemini CLI 0.61).
"""

from typing import Any

from toon_memory.adapters.installer.places import home, project
from toon_memory.adapters.installer.shapes import (
    command_handler,
    grouped_hooks,
    http_entry,
    mcp_entry,
    stdio,
)
from toon_memory.adapters.installer.spec import Agent, Block, Setup

#: Gemini's own session default (ms); ``mcp list`` alone would otherwise wait 5 s.
CONNECT_TIMEOUT_MS = 600_000


def _server(argv: list[str]) -> dict[str, Any]:
    return {**stdio(argv), "timeout": CONNECT_TIMEOUT_MS}


#: ``httpUrl`` is Streamable HTTP (``url`` would be SSE); ``$VAR`` is expanded in headers.
REMOTE = http_entry("$VAR", "httpUrl")

EVENTS = (("SessionStart", "session-start"), ("AfterTool", "post-tool"), ("SessionEnd", "stop"))

TRUST = ("Gemini CLI disables every MCP server, user scope included, in a folder it does not "
         "trust: accept its trust dialog, add the folder to ~/.gemini/trustedFolders.json "
         '(\"/path\": \"TRUST_FOLDER\"), or start it with `gemini --skip-trust`.')  # fmt: skip

AGENT = Agent(
    id="gemini",
    title="Gemini CLI",
    aliases=("gemini-cli",),
    detect=(project(".gemini"), home(".gemini/settings.json")),
    binaries=("gemini",),
    project=Setup(
        (
            mcp_entry(
                (project(".gemini/settings.json"),),
                "jsonc",
                ("mcpServers",),
                _server,
                remote=REMOTE,
            ),
            grouped_hooks(
                (project(".gemini/settings.json"),), "jsonc", EVENTS, command_handler(10000)
            ),
            Block((project("GEMINI.md"),)),
        ),
        notes=(TRUST,),
    ),
    user=Setup(
        (
            mcp_entry(
                (home(".gemini/settings.json"),), "jsonc", ("mcpServers",), _server, remote=REMOTE
            ),
            grouped_hooks(
                (home(".gemini/settings.json"),), "jsonc", EVENTS, command_handler(10000)
            ),
            Block((home(".gemini/GEMINI.md"),)),
        ),
        notes=(TRUST,),
    ),
)
