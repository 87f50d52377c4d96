"""The guided installer behind ``toon-memory`` with no arguments.

Invariant: without a terminal on stdin and stdout it prints the usage and
returns (exit 0) without touching a file; in a terminal nothing is written
before the user confirms the summary, and ``q`` (or end of input) at any
question leaves every file as it was.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from toon_memory.adapters.cli.install_commands import (
    init_memory,
    interactive,
    run_install,
    summary_lines,
)
from toon_memory.errors import InputError

USAGE = """\
toon-memory: persistent, token-lean memory for AI coding agents.

Run `toon-memory` in a terminal for the guided installer, or without prompts:
  toon-memory init local --agents claude,codex --yes   # this project's agent configs
  toon-memory init global --agents all --yes           # your user-wide agent configs
  toon-memory status                                   # what is installed where
  toon-memory uninstall --yes                          # remove only what init wrote
Run `toon-memory --help` for every command."""


class Quit(Exception):
    """The user typed q (or closed the input)."""


def ask(prompt: str) -> str:
    click.echo(prompt, nl=False)
    try:
        answer = input().strip()
    except EOFError:
        raise Quit from None
    if answer.lower() in ("q", "quit", "exit"):
        raise Quit
    return answer


def _table(agents: tuple[Any, ...], found: set[str]) -> None:
    click.echo(f"  {'#':>2}  {'Agent':20} {'Scopes':15} Detected")
    for number, agent in enumerate(agents, 1):
        mark = "✓" if agent.id in found else ""
        click.echo(f"  {number:>2}  {agent.title:20} {', '.join(agent.scopes):15} {mark}")


def parse_choice(answer: str, agents: tuple[Any, ...], found: set[str]) -> list[Any]:
    """Agents named by numbers, names, ``all`` or nothing (= the detected ones)."""
    from toon_memory.adapters.installer.catalog import find_agent

    if not answer:
        return [agent for agent in agents if agent.id in found]
    if answer.lower() == "all":
        return list(agents)
    chosen: list[Any] = []
    for token in answer.replace(",", " ").split():
        if token.isdigit():
            if not 1 <= int(token) <= len(agents):
                raise InputError("agents", f"no agent number {token}")
            agent = agents[int(token) - 1]
        else:
            agent = find_agent(token)
        if agent not in chosen:
            chosen.append(agent)
    return chosen


def _pick_agents(agents: tuple[Any, ...], found: set[str]) -> list[Any]:
    prompt = (f"Choose agents: numbers (1,3,5), names (claude,codex), all, "
              f"Enter = detected ({len(found)}), q = quit\n> ")  # fmt: skip
    while True:
        try:
            chosen = parse_choice(ask(prompt), agents, found)
        except InputError as exc:
            click.echo(f"  {exc.problem}")
            continue
        if chosen:
            return chosen
        click.echo("  No agent detected here; choose by number or name.")


def _pick_scope() -> str:
    while True:
        answer = ask("Scope: (1) project  (2) user [1]: ").lower()
        if answer in ("", "1", "project", "local"):
            return "project"
        if answer in ("2", "user", "global"):
            return "user"
        click.echo("  Type 1 or 2.")


def _confirm() -> bool:
    answer = ask("Proceed? [Y/n] ").lower()
    return answer in ("", "y", "yes")


def run(project: Path | None = None) -> None:
    """The whole dialogue; returns normally (exit 0) unless an install failed."""
    from toon_memory.adapters.installer.catalog import AGENTS
    from toon_memory.adapters.installer.engine import detected
    from toon_memory.adapters.installer.places import Places
    from toon_memory.store.paths import find_project_root

    if not interactive():
        click.echo(USAGE)
        return
    root = find_project_root(project)
    places = Places.current(root)
    found = {agent.id for agent in AGENTS if detected(agent, places)}
    click.echo(f"toon-memory installer — project: {root}\n")
    _table(AGENTS, found)
    try:
        chosen = _pick_agents(AGENTS, found)
        scope = _pick_scope()
        click.echo("\nSummary:")
        click.echo("\n".join(summary_lines(chosen, scope, places)))
        if not _confirm():
            raise Quit
    except Quit:
        click.echo("\nNothing changed.")
        return
    if scope == "project":
        click.echo(init_memory(root).text)
    if not all(report.ok for report in run_install(chosen, scope, root)):
        sys.exit(1)
