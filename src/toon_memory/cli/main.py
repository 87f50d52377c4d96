"""Entry point and shared plumbing of the CLI.

Invariant: each command opens one ``Memory``, calls it, and prints text or
(with ``--json``) JSON on stdout; ``ToonMemoryError`` becomes a message on
stderr and exit code 2 (bad input) or 1 (anything else). Nothing heavier
than click is imported before a command runs.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Any, TypeVar

import click

from toon_memory.errors import ToonMemoryError

F = TypeVar("F", bound=Callable[..., Any])


class Context:
    """What every command shares: the project override."""

    def __init__(self, project: str | None) -> None:
        self.project = project
        self._memory: Any = None

    @property
    def memory(self) -> Any:
        if self._memory is None:
            from toon_memory.memory import Memory

            self._memory = Memory(Path(self.project) if self.project else None)
        return self._memory

    def print_notices(self) -> None:
        """Messages from loading the memory (e.g. a migrated TypeScript file), on stderr."""
        if self._memory is not None:
            for note in self._memory.notices():
                click.echo(f"note: {note}", err=True)


def emit(data: Any, text: str, as_json: bool) -> None:
    """Print JSON (``--json``) or text."""
    if as_json:
        click.echo(json.dumps(data, ensure_ascii=False, indent=2, default=str))
    else:
        click.echo(text)


def handles_errors(func: F) -> F:
    """Turn our errors into a message on stderr and the documented exit code."""

    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except ToonMemoryError as exc:
            click.echo(f"error: {exc}", err=True)
            sys.exit(exc.exit_code)

    return wrapper  # type: ignore[return-value]


json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--project", type=click.Path(file_okay=False), envvar="TOON_MEMORY_PROJECT",
    help="Project root (default: found from the working directory; env TOON_MEMORY_PROJECT).",
)  # fmt: skip
@click.version_option(package_name="toon-memory")
@click.pass_context
def cli(ctx: click.Context, project: str | None) -> None:
    """Persistent, token-lean memory for AI coding agents.

    Memory lives in .toon-memory/memory/data.toon at the project root.
    """
    ctx.obj = Context(project)


@cli.result_callback()
@click.pass_context
def _after_command(ctx: click.Context, *_: Any, **__: Any) -> None:
    if isinstance(ctx.obj, Context):
        ctx.obj.print_notices()


def main() -> None:
    # Importing these modules registers their commands on ``cli``.
    from toon_memory.cli import commands, mcp_command, recall_commands, slm_commands  # noqa: F401

    exit_fast(cli, prog_name="toon-memory")


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
