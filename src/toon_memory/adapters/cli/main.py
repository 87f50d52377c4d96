"""Entry point of the CLI (``toon-memory``): hooks straight to their runner, the rest to click.

Invariant: importing this module loads nothing but the standard library.
``main`` runs the plain hook lines the installer writes (``hook <action>
[--agent NAME]``, ``cli.hook_run``) without click or any other command, as
every agent event starts one; every other command line goes to the click
group (``cli.group``). ``from toon_memory.adapters.cli.main import cli`` is that group
with every command added.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import click


def main() -> None:
    args = sys.argv[1:]
    if args[:1] == ["hook"]:
        from toon_memory.adapters.cli.hook_run import (
            fast_argv,
            fast_project,
            run_and_report,
            skip_hook,
        )

        parsed, (usable, project) = fast_argv(args[1:]), fast_project()
        if parsed is not None:
            if usable:
                run_and_report(project, *parsed)
            else:  # a hook never fails its agent, even over a bad TOON_MEMORY_PROJECT
                from toon_memory.errors import quote

                skip_hook(parsed[0], f"TOON_MEMORY_PROJECT {quote(project or '')} is not a folder")
            os._exit(0)  # as the CLI does (cli.group.exit_fast): no heap teardown
    from toon_memory.adapters.cli.group import run_cli

    run_cli(args)


def __getattr__(name: str) -> click.Group:
    """``cli``: the click group with every command."""
    if name == "cli":
        from toon_memory.adapters.cli.group import with_commands

        return with_commands()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
