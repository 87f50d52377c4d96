"""``init``, ``status``, ``uninstall`` and ``upgrade``: give agents the memory, or take it back.

Invariant: every rule about files lives in ``toon_memory.adapters.installer``; these
commands choose agents and scopes, call it, and print what happened. A
config that cannot be edited is reported (file and line) and the run goes
on with the others; the exit code is 1 when anything failed. ``init --server``
points the agents at a team server instead (their remote entry, hook lines
naming the server); an agent that cannot is skipped and says why; ``status``
probes a remote entry's server too (``cli.remote.probe_remote``). Nothing heavier
than click is imported before a command runs. ``COMMANDS`` is added to
the group by ``cli.main``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from toon_memory.errors import ToonMemoryError

if TYPE_CHECKING:
    from toon_memory.model.install_status import FileStatus, InstallStatus

SCOPE_NAMES = {"local": "project", "project": "project", "global": "user", "user": "user"}


def _project_of(ctx: click.Context) -> Path:
    from toon_memory.store.paths import find_project_root

    obj = ctx.find_root().obj
    given = getattr(obj, "project", None)
    return find_project_root(Path(given) if given else None)


def _places(root: Path) -> Any:
    from toon_memory.adapters.installer.places import Places

    return Places.current(root)


def shown(path: Path, places: Any) -> str:
    """``path`` relative to the project, or with ``~`` for the home folder."""
    for base, label in ((places.project, ""), (places.home, "~/")):
        try:
            return label + path.relative_to(base).as_posix()
        except ValueError:
            continue
    return str(path)


def init_memory(root: Path) -> Any:
    """The memory part of ``init``: ``Memory.init`` and its shared rendering."""
    from toon_memory.memory.api import Memory
    from toon_memory.render.results import initialised

    return initialised(Memory(root).init(), {})


def interactive() -> bool:
    return sys.stdin.isatty() and sys.stdout.isatty()


def print_report(report: Any, places: Any) -> None:
    mark = ("✓" if report.changes else "–") if report.ok else "✗"
    click.echo(f"{mark} {report.agent.title} ({report.scope})")
    for change in report.changes:
        click.echo(f"    {change.action:9} {shown(change.path, places)}  ({change.what})")
    for error in report.errors:
        click.echo(f"    error: {error}", err=True)
    for note in report.notes:
        click.echo(f"    note: {note}")


def summary_lines(agents: list[Any], scope: str, places: Any, remote: Any = None) -> list[str]:
    """agent → scope → path (what) lines for the confirmation summary."""
    from toon_memory.adapters.installer.engine import no_remote, plan

    lines = []
    for agent in agents:
        steps = plan(agent, scope, places, remote is not None)
        if not steps:
            note = agent.scope_note or f"no {scope}-scope config"
            if agent.setup(scope) is not None and remote is not None:
                note = no_remote(agent)
            lines.append(f"  {agent.title} → skipped ({note})")
        for path, what in steps:
            lines.append(f"  {agent.title} → {scope} → {shown(path, places)} ({what})")
    return lines


def run_install(agents: list[Any], scope: str, root: Path, *, quiet: bool = False,
                remote: Any = None) -> list[Any]:  # fmt: skip
    """Install ``agents`` in ``scope`` (pointing at the team server ``remote``); print each
    report unless ``quiet``; return them."""
    from toon_memory.adapters.installer import engine
    from toon_memory.adapters.installer.command import ServerCommand

    places = _places(root)
    command = ServerCommand.installed()
    reports = []
    for agent in agents:
        report = engine.install(agent, scope, places, command, remote)
        if not quiet:
            print_report(report, places)
        reports.append(report)
    chosen = engine.scope_command(scope, places, command)
    if not quiet:
        kind = "project files (committed: no path of this machine)" if scope == "project" else (
            "user files")  # fmt: skip
        if remote is not None:
            click.echo(f"team server: {remote.url} (token from ${remote.token_env}, never "
                       f"written to a file); hooks run: {chosen.line} hook …")  # fmt: skip
        else:
            click.echo(f"server command in {kind}: {chosen.line} mcp"
                       + (f"  ({chosen.why})" if chosen.why else ""))  # fmt: skip
    if " " in chosen.program and not quiet:
        click.echo("note: the program path has spaces; Trae rejects such a command")
    return reports


def report_data(report: Any) -> dict[str, Any]:
    """One agent's install report as JSON-ready data."""
    return {
        "agent": report.agent.id, "scope": report.scope, "ok": report.ok,
        "changes": [{"action": c.action, "path": str(c.path), "what": c.what}
                    for c in report.changes],
        "errors": [str(e) for e in report.errors], "notes": list(report.notes),
    }  # fmt: skip


def _choose(spec: str | None, places: Any) -> list[Any]:
    from toon_memory.adapters.installer.catalog import AGENTS, select
    from toon_memory.adapters.installer.engine import detected

    if spec:
        return select(spec)
    return [agent for agent in AGENTS if detected(agent, places)]


@click.command("init")
@click.argument("scope", required=False, default="local",
                type=click.Choice(["local", "global", "project", "user"]))  # fmt: skip
@click.option("--agents", "agents_spec", default=None,
              help="Agents to set up: names or ids separated by commas, or all "
                   "(default: the agents found on this machine).")  # fmt: skip
@click.option("--yes", "-y", is_flag=True, help="Do not ask for confirmation.")
@click.option(
    "--git",
    "use_git",
    is_flag=True,
    help="Share the memory through git: merge driver and pre-commit hook (see git-setup).",
)
@click.option("--server", "server", default=None, metavar="URL",
              help="Point the agents at this team server (its /mcp URL) instead of a local "
                   "memory: their remote MCP entry and hooks.")  # fmt: skip
@click.option("--token-env", "token_env", default=None, metavar="VAR",
              help="The environment variable the agents read the server's token from "
                   "(default TOON_MEMORY_TOKEN); the token itself is never written.")  # fmt: skip
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@click.pass_context
def init(ctx: click.Context, scope: str, agents_spec: str | None, yes: bool, use_git: bool,
         server: str | None, token_env: str | None, as_json: bool) -> None:  # fmt: skip
    """Create the memory and register it with your agents (MCP entry, hooks, instructions).

    Agents named with --agents are set up at once; the agents found on this
    machine are set up after a confirmation (a terminal) or with --yes.
    With --server, each agent that can gets a remote entry for that team
    server (the Authorization header read from --token-env by the agent).
    """
    from toon_memory.adapters.installer.remote import remote_server

    try:
        remote = None if server is None else remote_server(server, token_env)
        data, ok = _init(ctx, SCOPE_NAMES[scope], agents_spec, yes, as_json, remote)
        if use_git:
            data["git"] = _git_setup(ctx, quiet=as_json)
    except ToonMemoryError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(exc.exit_code)
    if as_json:
        click.echo(json.dumps(data, ensure_ascii=False, indent=2))
    if not ok:
        sys.exit(1)


def _git_setup(ctx: click.Context, *, quiet: bool) -> Any:
    """``init --git``: the merge driver and the pre-commit hook (``Sharing.git_setup``)."""
    from toon_memory.memory.api import Memory
    from toon_memory.render.sharing import git_set_up

    done = git_set_up(Memory(_project_of(ctx)).sharing.git_setup(), {})
    if not quiet:
        click.echo(done.text)
    return done.data


def _init(ctx: click.Context, where: str, agents_spec: str | None, yes: bool,
          quiet: bool, remote: Any) -> tuple[dict[str, Any], bool]:  # fmt: skip
    root = _project_of(ctx)
    places = _places(root)
    agents = _choose(agents_spec, places)
    data: dict[str, Any] = {"agents": []}
    if remote is not None:
        data["server"] = {"url": remote.url, "token_env": remote.token_env}
    if where == "project" and remote is None:
        done = init_memory(root)
        data.update(done.data)
        if not quiet:
            click.echo(done.text)
    if not agents:
        if not quiet:
            click.echo("No agent found on this machine; name some with --agents (or --agents all).")
        return data, True
    if not yes and not agents_spec and not interactive():
        if not quiet:
            click.echo("\n".join(["Found:", *summary_lines(agents, where, places, remote)]))
            click.echo("Nothing written to agent configs: run again with --yes (or --agents …).")
        return data, True
    if not yes and interactive() and not quiet:
        click.echo("\n".join(summary_lines(agents, where, places, remote)))
        if not click.confirm("Proceed?", default=True):
            click.echo("Nothing changed.")
            return data, True
    reports = run_install(agents, where, root, quiet=quiet, remote=remote)
    data["agents"] = [report_data(r) for r in reports]
    return data, all(r.ok for r in reports)


@click.command("status")
@click.option("--no-probe", is_flag=True, help="Do not start the written server commands.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@click.pass_context
def status(ctx: click.Context, no_probe: bool, as_json: bool) -> None:
    """What is installed where, what each agent still waits for, whether each server answers."""
    from toon_memory.adapters.cli.invocation import show
    from toon_memory.render.install import status_shown

    result = install_status(_places(_project_of(ctx)), probe_servers=not no_probe)
    show(status_shown(result, {"no_probe": no_probe}), as_json)
    if not result.ok:
        sys.exit(1)


def install_status(places: Any, *, probe_servers: bool) -> InstallStatus:
    """Every agent with a file installed (or broken) here, each file's state: an ``InstallStatus``."""
    from toon_memory.adapters.installer.catalog import AGENTS
    from toon_memory.adapters.installer.status import inspect, installed
    from toon_memory.model.install_status import AgentStatus, InstallStatus

    probed: dict[tuple[Any, ...], tuple[str, int, str]] = {}
    found = []
    for agent in AGENTS:
        states = []
        for scope in agent.scopes:
            mine = inspect(agent, scope, places)
            if not installed(agent, scope, places):
                mine = mine[:1]  # a file shared with others (AGENTS.md) is not this agent's
            states += [s for s in mine if s.state in ("installed", "error")]
        if states:
            files = tuple(_file_status(s, places, probed, probe_servers) for s in states)
            found.append(AgentStatus(agent.id, agent.title, files))
    return InstallStatus(tuple(found))


def _file_status(state: Any, places: Any, probed: dict[tuple[Any, ...], tuple[str, int, str]],
                 probe_servers: bool) -> FileStatus:  # fmt: skip
    """One file's status: its state, then (for a server entry) the missing paths, the step
    the agent still waits for, or the probe's answer (one probe per distinct command; for a
    remote entry, per distinct URL and variable)."""
    from dataclasses import replace

    from toon_memory.adapters.installer.probe import probe
    from toon_memory.adapters.installer.status import expanded, missing_paths
    from toon_memory.adapters.installer.trust import waiting_for
    from toon_memory.model.install_status import FileStatus

    done = FileStatus(state.scope, str(state.path), shown(state.path, places), state.what,
                      state.state, state.problem, remote=state.url)  # fmt: skip
    if state.url and state.state != "error":
        return _remote_status(state, done, places, probed, probe_servers)
    if state.state == "error" or not state.argv:
        return done
    argv = expanded(state.argv, places)
    gone = missing_paths(argv)
    if gone:
        return replace(done, missing=tuple(gone))
    waiting = waiting_for(state.agent.id, state.scope, places)
    if waiting or not probe_servers:
        return replace(done, waiting_for=waiting or "")
    cwd = places.project if state.scope == "project" else places.home
    key = (tuple(argv), state.env, cwd)
    if key not in probed:
        answer = probe(argv, cwd, dict(state.env))
        probed[key] = ("answers" if answer.ok else "fails", answer.tools, answer.problem)
    server, tools, problem = probed[key]
    return replace(done, server=server, tools=tools, problem=problem)


def _remote_status(state: Any, done: FileStatus, places: Any,
                   probed: dict[tuple[Any, ...], tuple[str, int, str]],
                   probe_servers: bool) -> FileStatus:  # fmt: skip
    """A remote entry's status: the step the agent waits for, and (unless ``--no-probe``)
    whether its team server answers with the token of the entry's variable."""
    from dataclasses import replace

    from toon_memory.adapters.cli.remote import probe_remote
    from toon_memory.adapters.installer.trust import waiting_for

    done = replace(done, waiting_for=waiting_for(state.agent.id, state.scope, places) or "")
    if not probe_servers:
        return done
    key = ("remote", state.url, state.token_env)
    if key not in probed:
        probed[key] = probe_remote(state.url, state.token_env)
    server, tools, problem = probed[key]
    return replace(done, server=server, tools=tools, problem=problem)


@click.command("uninstall")
@click.option("--agents", "agents_spec", default="all", show_default=True,
              help="Agents to remove: names or ids separated by commas, or all.")  # fmt: skip
@click.option("--scope", "scope", default="all", show_default=True,
              type=click.Choice(["local", "global", "all"]), help="Which configs to clean.")  # fmt: skip
@click.option("--yes", "-y", is_flag=True, help="Do not ask for confirmation.")
@click.pass_context
def uninstall(ctx: click.Context, agents_spec: str, scope: str, yes: bool) -> None:
    """Remove only what init wrote (entries, hooks, plugin files, instruction blocks)."""
    from toon_memory.adapters.installer import engine
    from toon_memory.adapters.installer.catalog import AGENTS, select
    from toon_memory.adapters.installer.status import installed

    try:
        chosen = select(agents_spec)
    except ToonMemoryError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(exc.exit_code)
    root = _project_of(ctx)
    places = _places(root)
    scopes = ("project", "user") if scope == "all" else (SCOPE_NAMES[scope],)
    if (
        not yes
        and interactive()
        and not click.confirm(
            f"Remove toon-memory from {len(chosen)} agent(s) ({', '.join(scopes)})?", default=True
        )
    ):
        click.echo("Nothing changed.")
        return
    ok = True
    for where in scopes:
        others = [a for a in AGENTS if a not in chosen and installed(a, where, places)]
        keep = set().union(*(engine.block_files(a, where, places) for a in others))
        # The installed ones first: a shared block (AGENTS.md) is reported by the agent that had it.
        for agent in sorted(chosen, key=lambda a: not installed(a, where, places)):
            report = engine.uninstall(agent, where, places, keep)
            if (
                any(c.action not in ("absent", "unchanged") for c in report.changes)
                or report.errors
            ):
                print_report(report, places)
            ok = ok and report.ok
    if "project" in scopes and engine.remove_created_gitignore(root) is not None:
        click.echo("removed   .gitignore  (created by init)")
    click.echo("Done. The memory itself (.toon-memory/) is kept.")
    if not ok:
        sys.exit(1)


@click.command("upgrade")
@click.option("--dry-run", is_flag=True, help="Print the upgrade command without running it.")
def upgrade(dry_run: bool) -> None:
    """Upgrade toon-memory the way it was installed (pipx, uv tool, pip), or say how."""
    import shutil
    import subprocess

    from toon_memory.adapters.installer.upgrade import detect_upgrade

    plan = detect_upgrade()
    if plan.argv is None:
        click.echo(plan.advice)
        return
    line = " ".join(plan.argv)
    if dry_run:
        click.echo(line)
        return
    if shutil.which(plan.argv[0]) is None and not Path(plan.argv[0]).is_file():
        click.echo(f"{plan.argv[0]} is not on PATH; run: {line}")
        sys.exit(1)
    click.echo(f"running: {line}")
    sys.exit(subprocess.call(list(plan.argv)))


COMMANDS: tuple[click.Command, ...] = (init, status, uninstall, upgrade)
