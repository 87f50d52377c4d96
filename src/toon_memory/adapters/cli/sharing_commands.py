"""The sharing commands: global store, Gist, team sync through git, watch.

Invariant: each is one ``Memory`` call (``Memory.sharing``, or the merge
driver's ``sharing.merge_files``) plus one shared renderer
(``render.sharing``), listed in ``COMMANDS`` and added to the group by
``cli.group``; every command takes ``--json``; ``global export|import`` and
``gist export|import`` are built from their tools' declarations
(``cli.declared``). ``watch`` alone owns process concerns: it stops on
SIGINT, SIGTERM and SIGHUP, when a piped stdin closes, or when its parent
process goes away, and then prints a summary.
Importing this module loads click and nothing of the core.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import click

from toon_memory.adapters.cli.declared import command
from toon_memory.adapters.cli.invocation import (
    Invocation,
    emit,
    handles_errors,
    json_option,
    pass_ctx,
    show,
)
from toon_memory.adapters.server.tools.sharing import SHARING

if TYPE_CHECKING:
    from toon_memory.memory.watcher import StopSignal


@click.group(name="global")
def global_group() -> None:
    """Share memories across projects through the global memory (~/.toon-memory)."""


@click.group()
def gist() -> None:
    """Sync a memory through a GitHub Gist (token: GITHUB_TOKEN or `gh auth token`)."""


_GROUPS = {"global": global_group, "gist": gist}
for _spec in SHARING:  # ``global export``: the ``export`` of group ``global``
    _GROUPS[_spec.command.split()[0]].add_command(command(_spec))


@click.command(name="merge-driver")
@click.argument("base", type=click.Path(dir_okay=False))
@click.argument("ours", type=click.Path(dir_okay=False))
@click.argument("theirs", type=click.Path(dir_okay=False))
@json_option
@handles_errors
def merge_driver(base: str, ours: str, theirs: str, as_json: bool) -> None:
    """git merge driver: merge BASE, OURS and THEIRS (%O %A %B) entry by entry into OURS."""
    from pathlib import Path

    from toon_memory.memory.sharing import merge_files
    from toon_memory.render.sharing import files_merged

    result = merge_files(Path(base), Path(ours), Path(theirs))
    show(files_merged(result, {"base": base, "ours": ours, "theirs": theirs}), as_json)


@click.command(name="git-setup")
@json_option
@pass_ctx
@handles_errors
def git_setup(ctx: Invocation, as_json: bool) -> None:
    """Share this memory through git: register the merge driver and the pre-commit hook."""
    from toon_memory.render.sharing import git_set_up

    show(git_set_up(ctx.memory.sharing.git_setup(), {}), as_json)


@click.group(name="git-hook")
def git_hook() -> None:
    """Actions git hooks run."""


@git_hook.command(name="pre-commit")
@json_option
@pass_ctx
@handles_errors
def git_pre_commit(ctx: Invocation, as_json: bool) -> None:
    """Fold the journal into data.toon and stage data.toon and archive.toon."""

    message = ctx.memory.sharing.pre_commit()
    emit({"message": message}, message, as_json)


_MINUTES = click.FloatRange(min=0.001, max=1440)


@click.command()
@click.argument("minutes", type=_MINUTES, required=False)
@click.option("--interval", type=_MINUTES, default=5.0,
              show_default=True, help="Minutes between checks (fractions allowed).")  # fmt: skip
@click.option("-c", "--compress", is_flag=True, help="gzip the backups.")
@click.option("-l", "--log", "log", is_flag=False, flag_value="", default=None, metavar="[PATH]",
              help="Log every backup (to PATH, default watch.log in the memory folder).")  # fmt: skip
@click.option("-m", "--max-backups", type=click.IntRange(min=0), default=10, show_default=True,
              help="Watch backups kept (0 = unlimited).")  # fmt: skip
@json_option
@pass_ctx
@handles_errors
def watch(
    ctx: Invocation, minutes: float | None, interval: float, compress: bool, log: str | None,
    max_backups: int, as_json: bool,
) -> None:  # fmt: skip
    """Back up the memory every MINUTES (or --interval) minutes when it changed, until stopped."""
    from toon_memory.memory.watcher import StopSignal
    from toon_memory.render.sharing import watched

    interval = interval if minutes is None else minutes

    watcher = ctx.memory.sharing.watcher(
        interval_minutes=interval, compress=compress, max_backups=max_backups, log=log
    )
    stop = StopSignal()
    parent = os.getppid()

    def gone() -> str:
        return "parent process exited" if os.getppid() != parent else ""

    with _stopping_on_signals(stop):
        _stop_when_stdin_closes(stop)
        click.echo(f"watching {watcher.paths.folder} every {interval:g} min (max backups "
                   f"{max_backups or 'unlimited'}, compression {'on' if compress else 'off'}; "
                   "Ctrl+C to stop)", err=True)  # fmt: skip
        summary = watcher.run(stop, gone)
    call: dict[str, Any] = {"interval": interval, "compress": compress, "log": log,
                            "max_backups": max_backups}  # fmt: skip
    show(watched(summary, call), as_json)


@contextmanager
def _stopping_on_signals(stop: StopSignal) -> Iterator[None]:
    import signal

    names = ("SIGINT", "SIGTERM", "SIGHUP")
    wanted = [getattr(signal, name) for name in names if hasattr(signal, name)]
    previous = {}
    for number in wanted:
        previous[number] = signal.signal(number, lambda n, _f: stop.set(signal.Signals(n).name))
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


def _stop_when_stdin_closes(stop: StopSignal) -> None:
    """A piped stdin (a parent that spawned us) closing ends the watch; a terminal does not."""
    import stat
    import threading

    try:
        mode = os.fstat(0).st_mode
    except OSError:
        return
    if not (stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)):
        return

    def drain() -> None:
        try:
            while os.read(0, 4096):
                pass
        except OSError:
            pass
        stop.set("stdin closed")

    threading.Thread(target=drain, name="stdin-watch", daemon=True).start()


COMMANDS: tuple[click.Command, ...] = (
    global_group, gist, merge_driver, git_setup, git_hook, watch,
)  # fmt: skip
