"""Google Antigravity (IDE and ``agy``): ``mcp_config.json`` ``mcpServers``; a named hook in hooks.json.

Sources: agents.md §11 (gaal citing antigravity.google/docs/mcp);
stbenjam/skillsaw docs/rules/antigravity-mcp-valid and antigravity-hooks-valid
(measured against agy 1.1.25/1.1.26, re-read through the search tool).
Unverified facts and what we chose:
- Project MCP: gaal says none (feature request), skillsaw measured
  ``.agents/mcp_config.json`` being read. We write ``.agents/mcp_config.json``
  (a measurement beats a feature request; the TypeScript original did too).
- User MCP path moved across versions: we write every one that exists of
  ``~/.gemini/config/`` (2.0+), ``~/.gemini/antigravity/`` and
  ``~/.gemini/antigravity-cli/``, the 2.0 one when none does.
- Hooks: skillsaw documents the file as an object of *named* hooks, each
  mapping events to handlers; ``PreInvocation``/``Stop``/``SessionStart`` take
  a flat handler list, ``PostToolUse`` matcher groups; strict JSON; timeout an
  integer of seconds. We write one named hook ``toon-memory`` with
  ``PreInvocation`` (as the issue asks; skillsaw also lists ``SessionStart``),
  ``PostToolUse`` (matcher ``*``) and ``Stop``. The stdin payload is
  unverified: the parser reads it with the generic field names.
"""

from typing import Any

from toon_memory.adapters.installer.places import home, project
from toon_memory.adapters.installer.shapes import mcp_entry, stdio
from toon_memory.adapters.installer.spec import Agent, Block, Entry, Inputs, OwnedFile, Setup
from toon_memory.adapters.installer.texts import plain_rule

USER_MCP = (
    home(".gemini/config/mcp_config.json"),
    home(".gemini/antigravity/mcp_config.json"),
    home(".gemini/antigravity-cli/mcp_config.json"),
)


def named_hook(inputs: Inputs) -> dict[str, Any]:
    def handler(action: str) -> dict[str, Any]:
        return {"type": "command", "command": inputs.hook(action), "timeout": 10}

    return {
        "PreInvocation": [handler("session-start")],
        "PostToolUse": [{"matcher": "*", "hooks": [handler("post-tool")]}],
        "Stop": [handler("stop")],
    }


AGENT = Agent(
    id="antigravity",
    no_remote="Antigravity expands no environment variable in mcp_config.json, so the token would have to be written in the file",
    title="Antigravity",
    aliases=("google-antigravity", "agy"),
    detect=(
        project(".agents"),
        home(".gemini/config"),
        home(".gemini/antigravity"),
        home(".gemini/antigravity-cli"),
    ),
    binaries=("agy", "antigravity"),
    project=Setup(
        (
            mcp_entry((project(".agents/mcp_config.json"),), "json", ("mcpServers",), stdio),
            Entry((project(".agents/hooks.json"),), "json", ("toon-memory",), named_hook, "hooks"),
            OwnedFile(project(".agents/rules/toon-memory.md"), plain_rule),
        )
    ),
    user=Setup(
        (
            mcp_entry(USER_MCP, "json", ("mcpServers",), stdio, every=True),
            Entry(
                (home(".gemini/config/hooks.json"),), "json", ("toon-memory",), named_hook, "hooks"
            ),
            Block((home(".gemini/GEMINI.md"),)),
        )
    ),
)
