"""``Team``: a team database as a whole: its schema, its tokens, and a ``Memory`` per project.

Invariants:
- Adapters reach the team database only through this module (the CLI's ``team``
  commands, the multi-project HTTP server); every call is one ``store.team`` step on a
  pooled connection, its failures ``DatabaseError`` (never a password).
- A token's text leaves ``create_token`` once and is never kept; ``authenticate`` answers
  a ``Grant`` for a live token only. What a role may do is decided here (``Grant``), once:
  a read token calls read-only tools only, a token limited to a project reaches that
  project only.
- ``listen`` hands a server the database's write notices (``store.team.listener``); a
  notice is a hint to warm up, never needed for a correct answer.
- ``memory(project)`` keeps the project's entries in the database and its side files
  (sessions, settings, captured notes) in a local folder, ``home / project``
  (default ``~/.toon-memory/team/<project>``), which it creates.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from toon_memory.errors import AccessDeniedError, InputError
from toon_memory.store.paths import STORE_DIR, home_dir
from toon_memory.store.team import URL_ENV, database_url
from toon_memory.store.team.database import describe, run
from toon_memory.store.team.team_store import check_project
from toon_memory.store.team.tokens import ROLES, TokenInfo

if TYPE_CHECKING:
    import psycopg

    from toon_memory.memory.api import Memory
    from toon_memory.memory.sharing import SyncReport
    from toon_memory.store.team.listener import Listener

    Conn = psycopg.Connection[tuple[Any, ...]]

T = TypeVar("T")

__all__ = ["ROLES", "URL_ENV", "Grant", "Migration", "NewToken", "Team", "TokenInfo",
           "check_project"]  # fmt: skip
#: The project ``/mcp`` (without a name) serves.
DEFAULT_PROJECT = "default"


def default_home() -> Path:
    """Where a team server keeps its projects' side files: ``~/.toon-memory/team``."""
    return home_dir() / STORE_DIR / "team"


@dataclass(frozen=True, slots=True)
class Migration:
    """``Team.init``: the schema version before and after."""

    before: int
    after: int

    @property
    def changed(self) -> bool:
        return self.before != self.after


@dataclass(frozen=True, slots=True)
class NewToken:
    """``Team.create_token``: the token's text (shown once) and its listed row."""

    token: str
    info: TokenInfo


@dataclass(frozen=True, slots=True)
class Grant:
    """What a live token may do: its name (the author of its writes), role and project."""

    name: str
    role: str
    project: str | None = None

    def reaches(self, project: str) -> bool:
        """May this token use ``project`` (a token limited to one reaches that one only)?"""
        return self.project is None or self.project == project

    def check_call(self, tool: str, read_only: bool) -> None:
        """Refuse a writing tool to a read token (``AccessDeniedError`` naming the role)."""
        if not read_only and self.role == "read":
            raise AccessDeniedError(
                f"the token {self.name!r} has role read: {tool} writes, which needs role "
                "write or admin (ask for a write token)"
            )


class Team:
    """One team database: ``team init``, tokens, and the memory of each project."""

    def __init__(self, url: str | None = None, home: Path | None = None) -> None:
        found = database_url(url)
        if found is None:
            raise InputError("database", f"give a PostgreSQL URL (--database or {URL_ENV})")
        self.url = found
        self.home = Path(home) if home is not None else default_home()
        self._memories: dict[str, Memory] = {}
        self._guard = threading.Lock()

    def describe(self) -> str:
        """The database server, without a password: ``user@host:port/db``."""
        return describe(self.url)

    def check(self) -> None:
        """Reach the database and refuse a schema ``team init`` has not made current."""
        from toon_memory.store.team.schema import require_current

        run(self.url, require_current)

    def init(self) -> Migration:
        """Create or migrate the schema (idempotent; concurrent runs apply each step once)."""
        from toon_memory.store.team.schema import migrate

        before, after = run(self.url, migrate)
        return Migration(before, after)

    # -- tokens ----------------------------------------------------------
    def create_token(self, name: str, role: str, project: str | None = None) -> NewToken:
        """A new token for ``name`` with ``role`` (read, write, admin), limited to ``project``
        when given; its text is in the answer only."""
        from toon_memory.store.team import tokens

        token, info = run(self.url, self._current(lambda c: tokens.create(c, name, role, project)))
        return NewToken(token, info)

    def tokens(self) -> list[TokenInfo]:
        """Every token (revoked ones too), oldest first; never a token's text or digest."""
        from toon_memory.store.team import tokens

        return run(self.url, self._current(tokens.listing))

    def revoke_token(self, name: str) -> TokenInfo:
        """Revoke the live token ``name``: it is refused from the next request on."""
        from toon_memory.store.team import tokens

        return run(self.url, self._current(lambda c: tokens.revoke(c, name)))

    def authenticate(self, token: str) -> Grant | None:
        """The grant of a live token, else None (missing, unknown or revoked)."""
        from toon_memory.store.team import tokens

        found = run(self.url, self._current(lambda c: tokens.find(c, token.strip())))
        return None if found is None else Grant(found.name, found.role, found.project)

    @staticmethod
    def _current(work: Callable[[Conn], T]) -> Callable[[Conn], T]:
        """``work`` on a connection, after checking the schema is this code's version."""
        from toon_memory.store.team.schema import require_current

        def checked(conn: Conn) -> T:
            require_current(conn)
            return work(conn)

        return checked

    # -- projects --------------------------------------------------------
    def memory(self, project: str = DEFAULT_PROJECT) -> Memory:
        """The memory of ``project`` (one per project and ``Team``, opened on first use)."""
        name = check_project(project)
        with self._guard:
            found = self._memories.get(name)
            if found is None:
                found = self._memories[name] = self._open(name)
            return found

    def _open(self, name: str) -> Memory:
        from toon_memory.memory.api import Memory

        root = self.home / name
        (root / STORE_DIR).mkdir(parents=True, exist_ok=True)
        return Memory(root, database=self.url, name=name)

    # -- moving a project's files in and out ------------------------------
    def push(self, root: str | Path | None = None, project: str | None = None,
             allow_secrets: bool = False) -> SyncReport:  # fmt: skip
        """The files' memory of the project at ``root`` merged into the database, as
        ``project`` (default: the project folder's name)."""
        from toon_memory.memory.team_sync import push

        local = self._local(root)
        return push(local.store, self.url, check_project(project or local.root.name),
                    allow_secrets)  # fmt: skip

    def pull(self, root: str | Path | None = None, project: str | None = None,
             allow_secrets: bool = False) -> SyncReport:  # fmt: skip
        """The database's ``project`` merged into the files of the project at ``root``."""
        from toon_memory.memory.team_sync import pull

        local = self._local(root)
        return pull(local.store, self.url, check_project(project or local.root.name),
                    allow_secrets)  # fmt: skip

    @staticmethod
    def _local(root: str | Path | None) -> Memory:
        from toon_memory.memory.api import Memory

        return Memory(root, database="")  # the files, whatever TOON_MEMORY_DATABASE_URL says

    def listen(self, heard: Callable[[str], None]) -> Listener:
        """A started ``Listener``: ``heard(project)`` for each write notice of the database
        (in its thread; again for every project heard of after a reconnect). Stop it."""
        from toon_memory.store.team.listener import Listener

        return Listener(self.url, heard).start()

    def opened(self) -> list[tuple[str, Memory]]:
        """(project, memory) of each memory ``memory`` has opened so far."""
        with self._guard:
            return list(self._memories.items())
