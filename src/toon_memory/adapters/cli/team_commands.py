"""``toon-memory team``: the team database (PostgreSQL): its schema and its tokens.

Invariant: each command is one ``Team`` call (``memory.team``) plus one shared renderer
(``render.team``); every command takes ``--database`` (or ``TOON_MEMORY_DATABASE_URL``).
``team token create`` prints the new token once, on the last line of stdout, and
nothing else ever prints a token. The group is the home of every team command (moving a
project's memory in and out of the database joins it here).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import click

from toon_memory.adapters.cli.invocation import handles_errors, json_option, show
from toon_memory.memory.team import ROLES, URL_ENV

if TYPE_CHECKING:
    from toon_memory.memory.team import Team

F = TypeVar("F", bound=Callable[..., Any])


def database_option(func: F) -> F:
    """``--database URL`` (env ``TOON_MEMORY_DATABASE_URL``)."""
    return click.option(
        "--database",
        "database",
        envvar=URL_ENV,
        default=None,
        metavar="URL",
        help=f"The team database, postgresql://user@host/db (env {URL_ENV}).",
    )(func)


def _team(database: str | None) -> Team:
    from toon_memory.memory.team import Team

    return Team(database)


@click.group()
def team() -> None:
    """A team memory in PostgreSQL: schema (init), tokens, and moving a project's files
    in (push) and out (pull)."""


@team.command("init")
@database_option
@json_option
@handles_errors
def init(database: str | None, as_json: bool) -> None:
    """Create or migrate the team database's schema (idempotent): prints the version
    before and after."""
    from toon_memory.render.team import migrated

    show(migrated(_team(database).init(), {}), as_json)


@team.group("token")
def token() -> None:
    """Bearer tokens of the team server: create, list, revoke."""


@token.command("create")
@click.argument("name")
@click.option(
    "--role", required=True, help=f"What the token may do: {', '.join(ROLES)} (read: "
    "read-only tools; write and admin: every tool).",
)  # fmt: skip
@click.option("--project", default=None, help="Limit the token to this project (default: all).")
@database_option
@handles_errors
def create(name: str, role: str, project: str | None, database: str | None) -> None:
    """Create a token for NAME (a person or a machine; the author of its writes). The token
    is printed once, on the last line; only its SHA-256 digest is stored."""
    from toon_memory.render.team import token_created

    show(token_created(_team(database).create_token(name, role, project), {}), False)


@token.command("list")
@database_option
@json_option
@handles_errors
def list_tokens(database: str | None, as_json: bool) -> None:
    """Every token: name, role, project (* for all), created, revoked (never the token)."""
    from toon_memory.render.team import token_list

    show(token_list(_team(database).tokens(), {}), as_json)


@token.command("revoke")
@click.argument("name")
@database_option
@json_option
@handles_errors
def revoke(name: str, database: str | None, as_json: bool) -> None:
    """Revoke the live token NAME: every server refuses it from the next request on."""
    from toon_memory.render.team import token_revoked

    show(token_revoked(_team(database).revoke_token(name), {}), as_json)


def _moving(func: F) -> F:
    """The options ``team push`` and ``team pull`` share."""
    for option in (
        json_option,
        database_option,
        click.option(
            "--allow-secrets",
            is_flag=True,
            help="Move entries that hold a credential too (skipped and reported by default).",
        ),
        click.option(
            "--project",
            default=None,
            help="The project's name in the database (default: the project folder's name).",
        ),
    ):
        func = option(func)
    return func


@team.command("push")
@_moving
@handles_errors
def push(project: str | None, allow_secrets: bool, database: str | None, as_json: bool) -> None:
    """Merge this project's memory (its files: data.toon) into the team database, with the
    remember merge rules. Idempotent: a second push changes nothing."""
    from toon_memory.render.sharing import team_pushed

    report = _team(database).push(None, project, allow_secrets)
    show(team_pushed(report, {}), as_json)


@team.command("pull")
@_moving
@handles_errors
def pull(project: str | None, allow_secrets: bool, database: str | None, as_json: bool) -> None:
    """Merge the team database's memory of this project into its files (data.toon), with
    the remember merge rules; a pull that brings nothing leaves data.toon byte for byte."""
    from toon_memory.render.sharing import team_pulled

    report = _team(database).pull(None, project, allow_secrets)
    show(team_pulled(report, {}), as_json)


COMMANDS: tuple[click.Command, ...] = (team,)
