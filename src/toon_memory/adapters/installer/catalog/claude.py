"""Claude Code: ``.mcp.json`` / ``~/.claude.json`` ``mcpServers``; hooks in settings.json.

Sources: code.claude.com/docs/en/mcp, docs.claude.com/en/docs/claude-code/hooks
and /memory (agents.md, verified). Hooks: SessionStart, PostToolUse and Stop
groups without a matcher (every source, every tool), timeout in seconds.
Instructions in CLAUDE.md: Claude Code does not read AGENTS.md.
"""

from toon_memory.adapters.installer.places import home, project
from toon_memory.adapters.installer.shapes import (
    command_handler,
    grouped_hooks,
    http_entry,
    mcp_entry,
    typed_stdio,
)
from toon_memory.adapters.installer.spec import Agent, Block, Setup

#: Claude Code expands ``${VAR}`` in ``url`` and ``headers`` (checked: ``claude mcp list``).
REMOTE = http_entry("${VAR}", type="http")

EVENTS = (("SessionStart", "session-start"), ("PostToolUse", "post-tool"), ("Stop", "stop"))

AGENT = Agent(
    id="claude",
    title="Claude Code",
    aliases=("claude-code", "claudecode"),
    detect=(project(".mcp.json"), project(".claude"), home(".claude"), home(".claude.json")),
    binaries=("claude",),
    project=Setup(
        (
            mcp_entry((project(".mcp.json"),), "json", ("mcpServers",), typed_stdio, remote=REMOTE),
            grouped_hooks((project(".claude/settings.json"),), "json", EVENTS, command_handler(10)),
            Block((project("CLAUDE.md"),)),
        ),
        notes=("Claude Code asks once to approve the servers of a project's .mcp.json.",),
    ),
    user=Setup(
        (
            mcp_entry((home(".claude.json"),), "json", ("mcpServers",), typed_stdio, remote=REMOTE),
            grouped_hooks((home(".claude/settings.json"),), "json", EVENTS, command_handler(10)),
            Block((home(".claude/CLAUDE.md"),)),
        )
    ),
)
