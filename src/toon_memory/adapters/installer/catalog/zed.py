"""Zed: ``context_servers`` in the JSONC ``settings.json`` (project ``.zed/``).

Sources: zed-industries/zed docs/src/ai/mcp.md (current shape ``source:
custom`` with flat ``command``/``args``/``env``), zed.dev/docs/ai/rules.
User file: ``~/.config/zed/settings.json`` (XDG) on Linux and macOS per
zed.dev/docs/configuring-zed; the macOS ``~/Library/Application Support/Zed``
claim is a single third party (agents.md: conflict) so we keep the vendor's
path; Windows ``%APPDATA%\\Zed``. Zed reads only the first of its rule files,
so our block goes into the first that exists (AGENTS.md when none does).
"""

from toon_memory.adapters.installer.places import appdata, project, xdg
from toon_memory.adapters.installer.shapes import mcp_entry
from toon_memory.adapters.installer.spec import Agent, Block, Setup

RULE_FILES = (
    ".rules",
    ".cursorrules",
    ".windsurfrules",
    ".clinerules",
    ".github/copilot-instructions.md",
    "AGENT.md",
    "AGENTS.md",
    "CLAUDE.md",
    "GEMINI.md",
)


def zed_entry(argv: list[str]) -> dict[str, object]:
    return {"source": "custom", "command": argv[0], "args": argv[1:], "env": {}}


AGENT = Agent(
    id="zed",
    no_remote="Zed documents no environment variable in a remote server's headers",
    title="Zed",
    detect=(project(".zed"), xdg("zed", windows=appdata("Zed"))),
    binaries=("zed", "zeditor"),
    project=Setup(
        (
            mcp_entry((project(".zed/settings.json"),), "jsonc", ("context_servers",), zed_entry),
            Block(tuple(project(name) for name in RULE_FILES), default=project("AGENTS.md")),
        )
    ),
    user=Setup(
        (
            mcp_entry(
                (xdg("zed/settings.json", windows=appdata("Zed/settings.json")),),
                "jsonc",
                ("context_servers",),
                zed_entry,
            ),
        )
    ),
)
