"""Qwen Code: ``mcpServers`` in ``.qwen/settings.json`` (comments allowed); QWEN.md.

Sources: qwenlm.github.io/qwen-code-docs (users/features/mcp, cli/configuration),
QwenLM/qwen-code docs/users/features/hooks.md (agents.md). QWEN.md as the
context file is Gemini-derived and only partially verified; Qwen also
follows ``context.fileName``, which we leave alone. Hooks are not written
(the issue limits them to Claude Code, Codex, Gemini and Antigravity); the
payload parser reads Qwen's Claude-style payload.
"""

from toon_memory.adapters.installer.places import home, project
from toon_memory.adapters.installer.shapes import http_entry, mcp_entry, stdio
from toon_memory.adapters.installer.spec import Agent, Block, Setup

#: Gemini-derived: ``httpUrl`` is Streamable HTTP, ``$VAR`` expanded (checked: ``qwen mcp list``).
REMOTE = http_entry("$VAR", "httpUrl")

AGENT = Agent(
    id="qwen",
    title="Qwen Code",
    aliases=("qwen-code",),
    detect=(project(".qwen"), home(".qwen")),
    binaries=("qwen",),
    project=Setup(
        (
            mcp_entry(
                (project(".qwen/settings.json"),), "jsonc", ("mcpServers",), stdio, remote=REMOTE
            ),
            Block((project("QWEN.md"),)),
        )
    ),
    user=Setup(
        (
            mcp_entry(
                (home(".qwen/settings.json"),), "jsonc", ("mcpServers",), stdio, remote=REMOTE
            ),
            Block((home(".qwen/QWEN.md"),)),
        )
    ),
)
