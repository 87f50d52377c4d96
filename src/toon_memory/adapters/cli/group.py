"""The ``toon-memory`` click group, which loads only the module of the command that runs.

Invariant: ``COMMAND_MODULES`` is the one table of which command module holds
which top-level command; ``LazyGroup`` lists every name in it (so ``--help``
shows them all, loading their modules for the short help) and imports only the
module of the command being run, adding that module's ``COMMANDS``. A test
checks the table against every module's ``COMMANDS``, so a command cannot
vanish; command modules never import this one. Importing this module loads
click and the CLI invocation, no command module and nothing of the core.
"""

from __future__ import annotations

import importlib
import os
import sys
from typing import Any

import click

from toon_memory.adapters.cli.invocation import Invocation

#: module (under ``toon_memory.adapters.cli``) -> the top-level commands in its ``COMMANDS``.
COMMAND_MODULES: dict[str, tuple[str, ...]] = {
    "commands": ("remember", "forget", "stats", "summary", "archive", "diff", "pin", "unpin",
                 "tag", "backup", "checkpoint", "get", "restore", "compact", "doctor", "export",
                 "import", "demo"),
    "recall_commands": ("recall", "search", "smart-recall", "suggest", "path", "primer"),
    "state_commands": ("state",),
    "install_commands": ("init", "status", "uninstall", "upgrade"),
    "context_commands": ("context",),
    "session_commands": ("sessions", "merge-sessions", "captured", "hook"),
    "curation_commands": ("consolidate", "reflect", "promote", "compress"),
    "sharing_commands": ("global", "gist", "merge-driver", "git-setup", "git-hook", "watch"),
    "security_commands": ("encrypt", "decrypt", "secret"),
    "viewer_commands": ("viewer",),
    "mcp_command": ("mcp",),
    "team_commands": ("team",),
}  # fmt: skip
MODULE_OF = {name: module for module, names in COMMAND_MODULES.items() for name in names}


class LazyGroup(click.Group):
    """A group whose commands are loaded from ``COMMAND_MODULES`` when first asked for."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.commands, *MODULE_OF})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in MODULE_OF:
            load(MODULE_OF[cmd_name])
        return self.commands.get(cmd_name)


def load(module: str) -> None:
    """Add the ``COMMANDS`` of command module ``module`` to the group."""
    found = importlib.import_module(f"toon_memory.adapters.cli.{module}")
    for command in found.COMMANDS:
        cli.add_command(command)


@click.group("cli", cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--project", type=click.Path(exists=True, file_okay=False), envvar="TOON_MEMORY_PROJECT",
    help="Project root, an existing folder (default: found from the working directory; "
    "env TOON_MEMORY_PROJECT).",
)  # fmt: skip
@click.option(
    "--database", metavar="URL", default=None,
    help="Keep the entries in this team database, postgresql://user@host/db, as the project "
    "folder's name (env TOON_MEMORY_DATABASE_URL; default: the files).",
)  # fmt: skip
@click.version_option(package_name="toon-memory")
@click.pass_context
def cli(ctx: click.Context, project: str | None, database: str | None) -> None:
    """Persistent, token-lean memory for AI coding agents.

    Memory lives in .toon-memory/memory/data.toon at the project root (or, with --database,
    in a team database).
    """
    ctx.obj = Invocation(project, database)


@cli.result_callback()
@click.pass_context
def _after_command(ctx: click.Context, *_: Any, **__: Any) -> None:
    if isinstance(ctx.obj, Invocation):
        ctx.obj.print_notices()


def with_commands() -> click.Group:
    """The group with every command module's ``COMMANDS`` added (for tests and ``main.cli``)."""
    for module in COMMAND_MODULES:
        load(module)
    return cli


def run_cli(args: list[str]) -> None:
    """The CLI for ``args`` (the guided installer when there are none); never returns."""
    if not args:  # no arguments: the guided installer (usage without a terminal)
        exit_fast(_installer)
    exit_fast(cli, args=args, prog_name="toon-memory")


@click.command()
def _installer() -> None:
    from toon_memory.adapters.cli.installer_prompt import run

    run()


def exit_fast(command: click.Command, **kwargs: Any) -> None:
    """Run ``command``, flush, and leave without tearing down the heap.

    Every write is fsync'd before a command returns, so nothing is left to
    clean up; skipping the interpreter's teardown of a large cached memory
    saves tens of milliseconds on every hook and CLI call.
    """
    try:
        command(**kwargs)
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        if isinstance(exc.code, str):
            click.echo(exc.code, err=True)
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        code = code or 1
    os._exit(code)
