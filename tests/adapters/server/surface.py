"""The published surface, as one JSON snapshot: ``tools/list`` and the declared CLI commands.

``surface.json`` beside this file is the contract: ``test_contract.py`` compares
it with what a live server lists and what the CLI group builds. Both halves are
built from the one declaration of each tool (``adapters/server/tools/``), so a
change there shows here. After an intended change, regenerate and review the diff:

    python -m tests.adapters.server.surface
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import anyio
import click
from mcp.client import Client

from toon_memory.adapters.cli.declared import method_default
from toon_memory.adapters.server.app import ToonMemoryServer
from toon_memory.adapters.server.specs import ToolSpec
from toon_memory.adapters.server.tools import COMMAND_SPECS

SNAPSHOT = Path(__file__).with_name("surface.json")


def listed_tools() -> list[dict[str, Any]]:
    """``tools/list`` of a live server (in-process transport), as the client reads it."""

    async def fetch() -> list[dict[str, Any]]:
        async with Client(ToonMemoryServer()) as client:
            listing = await client.list_tools()
        dumped = listing.model_dump(by_alias=True, exclude_none=True, mode="json")
        return list(dumped["tools"])

    return anyio.run(fetch)


def command_surface(spec: ToolSpec, command: click.Command) -> dict[str, Any]:
    """What a user sees of a declared command: each parameter's flags, default, help."""
    params: list[dict[str, Any]] = []
    for param in command.params:
        row: dict[str, Any] = {"name": param.name, "flags": [*param.opts, *param.secondary_opts],
                               "required": param.required}  # fmt: skip
        declared = next((p for p in spec.params if p.name == param.name), None)
        if declared is not None:
            cli = declared.cli
            given = cli is not None and cli.default is not ...
            row["default"] = cli.default if given and cli else method_default(spec, declared.name)
        if isinstance(param, click.Option):
            row["help"] = param.help or ""
        if isinstance(param.type, click.Choice):
            row["choices"] = list(param.type.choices)
        params.append(row)
    out: dict[str, Any] = {"tool": spec.name, "help": command.help, "params": params}
    fixed = {p.name: p.cli.default for p in spec.params if p.cli is not None and p.cli.fixed}
    return {**out, "fixed": fixed} if fixed else out


def declared_commands() -> dict[str, Any]:
    """Every CLI command built from a tool declaration, by command name."""
    from toon_memory.adapters.cli.main import cli

    out: dict[str, Any] = {}
    for spec in COMMAND_SPECS:
        found: click.Command = cli
        for name in spec.command.split():
            assert isinstance(found, click.Group), spec.command
            found = found.commands[name]
        out[spec.command] = command_surface(spec, found)
    return out


def surface() -> dict[str, Any]:
    return {"tools": listed_tools(), "commands": declared_commands()}


def render(found: dict[str, Any]) -> str:
    return json.dumps(found, indent=1, ensure_ascii=False, sort_keys=False) + "\n"


if __name__ == "__main__":
    SNAPSHOT.write_text(render(surface()), encoding="utf-8")
    sys.stdout.write(f"wrote {SNAPSHOT}\n")
