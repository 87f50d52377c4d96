"""Bearer tokens of a team database: created, listed, revoked, and checked on each request.

Invariants:
- A token is stored only as the SHA-256 digest of its text; the text itself leaves this
  module once, in ``create``'s answer, and is never written, logged or listed.
- At most one live (not revoked) token has a given name (a partial unique index), so a
  name names one person or machine; a revoked token keeps its row (the list shows when)
  and never authenticates again.
- Every check of a name, role or project is here, before any statement runs.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from toon_memory.errors import InputError
from toon_memory.model.checks import check_choice
from toon_memory.store.team.team_store import check_project

if TYPE_CHECKING:
    import psycopg

    Conn = psycopg.Connection[tuple[Any, ...]]

#: What a token may do: read (read-only tools), write (every tool), admin (every tool;
#: the role the team's own tools will ask for).
ROLES: tuple[str, ...] = ("read", "write", "admin")
#: Bytes of randomness in a token (``secrets.token_urlsafe``: 43 characters).
TOKEN_BYTES = 32
TOKEN_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._@+-]{0,63}")


@dataclass(frozen=True, slots=True)
class TokenInfo:
    """What the list shows of a token: never its text or digest."""

    name: str
    role: str
    project: str | None
    created: str
    revoked: str | None = None

    @property
    def live(self) -> bool:
        return self.revoked is None

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "role": self.role,
            "project": self.project,
            "created": self.created,
            "revoked": self.revoked,
        }


def check_name(name: object) -> str:
    """A token's name: 1-64 letters, digits, ``.``, ``_``, ``@``, ``+`` or ``-``."""
    if not isinstance(name, str) or not TOKEN_NAME.fullmatch(name):
        raise InputError(
            "name", "a name of 1-64 letters, digits, '.', '_', '@', '+' or '-' (not first)"
        )
    return name


def check_role(role: object) -> str:
    return check_choice(role, "role", ROLES)


def digest(token: str) -> str:
    """The SHA-256 digest (hex) a token is stored and looked up as."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def _when(value: datetime | None) -> str | None:
    return None if value is None else value.isoformat(timespec="seconds")


def _info(row: tuple[Any, ...]) -> TokenInfo:
    name, role, project, created, revoked = row
    return TokenInfo(name, role, project, _when(created) or "", _when(revoked))


_COLUMNS = "name, role, project, created, revoked"


def create(conn: Conn, name: str, role: str, project: str | None) -> tuple[str, TokenInfo]:
    """A new token (its text, and its row); refused when a live one has this name."""
    name, role = check_name(name), check_role(role)
    project = check_project(project) if project else None
    token = secrets.token_urlsafe(TOKEN_BYTES)
    with conn.transaction():
        row = conn.execute(
            f"INSERT INTO tokens (name, digest, role, project) VALUES (%s, %s, %s, %s) "
            f"ON CONFLICT DO NOTHING RETURNING {_COLUMNS}",
            (name, digest(token), role, project),
        ).fetchone()
    if row is None:
        raise InputError("name", f"a live token named {name!r} exists; revoke it first")
    return token, _info(row)


def listing(conn: Conn) -> list[TokenInfo]:
    """Every token, revoked ones included, oldest first."""
    rows = conn.execute(f"SELECT {_COLUMNS} FROM tokens ORDER BY created, id").fetchall()
    return [_info(row) for row in rows]


def revoke(conn: Conn, name: str) -> TokenInfo:
    """Revoke the live token named ``name`` (it never authenticates again)."""
    name = check_name(name)
    with conn.transaction():
        row = conn.execute(
            f"UPDATE tokens SET revoked = now() WHERE name = %s AND revoked IS NULL "
            f"RETURNING {_COLUMNS}",
            (name,),
        ).fetchone()
    if row is None:
        raise InputError("name", f"no live token named {name!r} (see `team token list`)")
    return _info(row)


def find(conn: Conn, token: str) -> TokenInfo | None:
    """The live token whose text is ``token``, else None (unknown or revoked)."""
    if not token:
        return None
    row = conn.execute(
        f"SELECT {_COLUMNS} FROM tokens WHERE digest = %s AND revoked IS NULL", (digest(token),)
    ).fetchone()
    return None if row is None else _info(row)
