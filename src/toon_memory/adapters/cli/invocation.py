"""What every CLI command shares: the opened ``Memory``, output and error handling.

Invariant: a command gets its ``Memory`` from ``Invocation.memory`` (opened on
first use, for ``--project`` or the working directory), prints one rendered
result with ``show`` (text, or its data as JSON with ``--json``), and a
``ToonMemoryError`` becomes one line on stderr and the documented exit code
(2 bad input, 1 anything else). An ``OSError`` that reaches the edge becomes
one line naming the path and what to do (exit 1), never a traceback; text
arguments that are not valid Unicode (undecodable bytes on the command line)
are refused before the command runs (exit 2, naming the parameter).
Importing this module loads click and the pure tool data (``adapters.server.specs``),
nothing of the core.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from toon_memory.adapters.server.specs import ALLOW_SECRETS_HELP
from toon_memory.errors import ToonMemoryError

if TYPE_CHECKING:
    from toon_memory.memory.api import Memory
    from toon_memory.render.results import Rendered

F = TypeVar("F", bound=Callable[..., Any])
__all__ = ["ALLOW_SECRETS_HELP", "Invocation", "handles_errors", "json_option", "pass_ctx", "show"]


class Invocation:
    """What every command shares: the project override and the memory it opens."""

    def __init__(self, project: str | None, database: str | None = None) -> None:
        self.project = project
        self.database = database
        self._memory: Memory | None = None

    @property
    def memory(self) -> Memory:
        if self._memory is None:
            from toon_memory.memory.api import Memory

            self._memory = Memory(Path(self.project) if self.project else None,
                                  database=self.database, one_shot=True)  # fmt: skip
        return self._memory

    def print_notices(self) -> None:
        """Messages from loading the memory (e.g. a migrated TypeScript file), on stderr."""
        if self._memory is not None:
            for note in self._memory.notices():
                click.echo(f"note: {note}", err=True)


pass_ctx = click.make_pass_decorator(Invocation)


def emit(data: Any, text: str, as_json: bool) -> None:
    """Print JSON (``--json``) or text."""
    if as_json:
        click.echo(printable(json.dumps(data, ensure_ascii=False, indent=2, default=str)))
    else:
        click.echo(printable(text))


def printable(text: str) -> str | bytes:
    """``text``, or its bytes when it holds a lone surrogate (a file name that is not UTF-8:
    its own bytes are printed back, anything else as a backslash escape)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        try:
            return text.encode("utf-8", "surrogateescape")
        except UnicodeEncodeError:
            return text.encode("utf-8", "backslashreplace")
    return text


def show(rendered: Rendered, as_json: bool) -> None:
    """Print a rendered result: its data as JSON (``--json``) or its text."""
    emit(rendered.data, rendered.text, as_json)


def handles_errors(func: F) -> F:
    """Turn our errors into a message on stderr and the documented exit code."""

    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            check_unicode_args(kwargs)
            return func(*args, **kwargs)
        except ToonMemoryError as exc:
            _notices_before_error()
            click.echo(f"error: {exc}", err=True)
            sys.exit(exc.exit_code)
        except OSError as exc:
            from toon_memory.system.oserrors import explain

            _notices_before_error()
            click.echo(f"error: {explain(exc)}", err=True)
            sys.exit(1)

    return wrapper  # type: ignore[return-value]


def _notices_before_error() -> None:
    """A failing command still tells what loading found (e.g. a journal set aside)."""
    ctx = click.get_current_context(silent=True)
    shared = ctx.find_object(Invocation) if ctx is not None else None
    if shared is not None:
        shared.print_notices()


def check_unicode_args(kwargs: dict[str, Any]) -> None:
    """Refuse a text parameter holding a lone surrogate (bytes that are not UTF-8 on the
    command line), naming it; paths are exempt (a file name may be any bytes)."""
    ctx = click.get_current_context(silent=True)
    if ctx is None:
        return
    for param in ctx.command.params:
        if isinstance(param.type, click.Path) or param.name is None:
            continue
        value = kwargs.get(param.name)
        for text in value if isinstance(value, (tuple, list)) else (value,):
            if not isinstance(text, str):
                continue
            try:
                text.encode("utf-8")
            except UnicodeEncodeError as exc:
                from toon_memory.errors import InputError

                raise InputError(
                    param.name.rstrip("_"),
                    f"is not valid Unicode text (an undecodable byte at character {exc.start})",
                ) from None


json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
