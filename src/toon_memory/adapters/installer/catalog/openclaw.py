"""OpenClaw: user-scope only, ``mcp.servers`` in the JSON5 ``~/.openclaw/openclaw.json``.

Sources: docs.openclaw.ai/cli/mcp, /automation/hooks, /concepts/agent
(agents.md, verified). JSON5: edited by text splices, comments and unquoted
keys kept. No shell hooks (gateway hooks are TypeScript modules) and no
instruction block: the workspace AGENTS.md is OpenClaw's own bootstrap file.
"""

from toon_memory.adapters.installer.places import home
from toon_memory.adapters.installer.shapes import mcp_entry, stdio
from toon_memory.adapters.installer.spec import Agent, Setup

AGENT = Agent(
    id="openclaw",
    no_remote="OpenClaw documents no environment variable in a remote server's headers",
    title="OpenClaw",
    aliases=("open-claw",),
    detect=(home(".openclaw"),),
    binaries=("openclaw",),
    project=None,
    scope_note="OpenClaw has one user config; install it with `init global`",
    user=Setup(
        (mcp_entry((home(".openclaw/openclaw.json"),), "json5", ("mcp", "servers"), stdio),)
    ),
)
