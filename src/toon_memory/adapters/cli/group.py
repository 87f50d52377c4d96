"""The ``toon-memory`` click group and every command added to it.

Invariant: every command module exposes ``COMMANDS`` and ``with_commands``
adds each one to the group explicitly (``add_command``), so a command cannot
vanish because an import was forgotten; command modules never import this
one. Importing this module loads click and the CLI context, no command module
and nothing of the core (store, search, server): a command loads those when it
runs.
"""

from __future__ import annotations

import os
import sys
from typing import Any

import click

from toon_memory.adapters.cli.invocation import Invocation


@click.group("cli", context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--project", type=click.Path(exists=True, file_okay=False), envvar="TOON_MEMORY_PROJECT",
    help="Project root, an existing folder (default: found from the working directory; "
    "env TOON_MEMORY_PROJECT).",
)  # fmt: skip
@click.version_option(package_name="toon-memory")
@click.pass_context
def cli(ctx: click.Context, project: str | None) -> None:
    """Persistent, token-lean memory for AI coding agents.

    Memory lives in .toon-memory/memory/data.toon at the project root.
    """
    ctx.obj = Invocation(project)


@cli.result_callback()
@click.pass_context
def _after_command(ctx: click.Context, *_: Any, **__: Any) -> None:
    if isinstance(ctx.obj, Invocation):
        ctx.obj.print_notices()


def with_commands() -> click.Group:
    """The group with every command module's ``COMMANDS`` added."""
    from toon_memory.adapters.cli import (
        commands,
        context_commands,
        curation_commands,
        install_commands,
        mcp_command,
        recall_commands,
        security_commands,
        session_commands,
        sharing_commands,
        state_commands,
        viewer_commands,
    )

    for command in (
        *commands.COMMANDS,
        *recall_commands.COMMANDS,
        *state_commands.COMMANDS,
        *install_commands.COMMANDS,
        *context_commands.COMMANDS,
        *session_commands.COMMANDS,
        *curation_commands.COMMANDS,
        *sharing_commands.COMMANDS,
        *security_commands.COMMANDS,
        *viewer_commands.COMMANDS,
        mcp_command.mcp,
    ):
        cli.add_command(command)
    return cli


def run_cli(args: list[str]) -> None:
    """The CLI for ``args`` (the guided installer when there are none); never returns."""
    if not args:  # no arguments: the guided installer (usage without a terminal)
        exit_fast(_installer)
    exit_fast(with_commands(), args=args, prog_name="toon-memory")


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
