"""Goose: user-scope only, ``extensions.toon-memory`` in ``~/.config/goose/config.yaml``.

Sources: block.github.io/goose/docs/guides/config-files (flat ``cmd``/``args``
entry; Windows ``%APPDATA%\\Block\\goose\\config``), re-read through the
search tool. The nested ``config:`` variant appears only in a mintlify
mirror (agents.md: discrepancy): the vendor's flat shape wins. ``description``
is added (Goose's own entries carry one; harmless if optional). Goose hooks
are observation-only plugins and the issue does not ask for them.
"""

from toon_memory.adapters.installer.places import appdata, xdg
from toon_memory.adapters.installer.shapes import mcp_entry
from toon_memory.adapters.installer.spec import Agent, Setup

CONFIG = xdg("goose/config.yaml", windows=appdata("Block/goose/config/config.yaml"))


def goose_entry(argv: list[str]) -> dict[str, object]:
    return {"enabled": True, "type": "stdio", "name": "toon-memory",
            "description": "Project memory (toon-memory)", "cmd": argv[0], "args": argv[1:],
            "envs": {}, "timeout": 300}  # fmt: skip


AGENT = Agent(
    id="goose",
    no_remote="Goose documents no environment variable in a remote extension's headers",
    title="Goose",
    aliases=("block-goose",),
    detect=(xdg("goose", windows=appdata("Block/goose")),),
    binaries=("goose",),
    project=None,
    scope_note="Goose has no project-scope MCP config; install it with `init global`",
    user=Setup((mcp_entry((CONFIG,), "yaml", ("extensions",), goose_entry),)),
)
