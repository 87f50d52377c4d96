"""Connections to the team database: one pool per URL and process, errors made plain.

Invariant: a failure to reach or use the database leaves this module only as a
``DatabaseError`` whose message names the server (host, port, database, user) and never
the password; a connection that broke is dropped from the pool, and the next call opens
a new one, so a database that goes away and comes back works again without a restart.
psycopg is imported only here, and only when a team store is used.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TypeVar

from toon_memory.errors import DatabaseError

if TYPE_CHECKING:
    import psycopg
    from psycopg_pool import ConnectionPool

T = TypeVar("T")
#: Seconds to wait for a connection before the call fails with a clear error.
CONNECT_TIMEOUT = 5
_POOLS: dict[str, ConnectionPool[Any]] = {}
_GUARD = threading.Lock()


def require_driver() -> None:
    """Refuse, saying what to install, when psycopg (the ``team`` extra) is missing."""
    try:
        import psycopg  # noqa: F401
        import psycopg_pool  # noqa: F401
    except ImportError:
        raise DatabaseError(
            "a team database needs the PostgreSQL driver: pip install 'toon-memory[team]' "
            "(psycopg 3 and its pool); nothing was changed"
        ) from None


def describe(url: str) -> str:
    """The server a URL names, without its password: ``user@host:port/db``."""
    require_driver()
    from psycopg.conninfo import conninfo_to_dict

    try:
        parts = conninfo_to_dict(url)
    except Exception:  # a URL we cannot read is described as such
        return "the database URL (unreadable)"
    host = str(parts.get("host") or "localhost")
    user = f"{parts['user']}@" if parts.get("user") else ""
    return f"{user}{host}:{parts.get('port') or 5432}/{parts.get('dbname') or ''}"


def redacted(url: str, exc: BaseException) -> str:
    """The first line of ``exc``'s message, with the URL's password (if any) cut out."""
    from psycopg.conninfo import conninfo_to_dict

    text = _first_line(exc)
    try:
        password = str(conninfo_to_dict(url).get("password") or "")
    except Exception:  # an unreadable URL: its message may quote any part of it
        return type(exc).__name__
    if password:
        from urllib.parse import quote

        for form in (password, quote(password, safe="")):
            text = text.replace(form, "***")
    return text


def _pool(url: str) -> ConnectionPool[Any]:
    with _GUARD:
        pool = _POOLS.get(url)
        if pool is None:
            from psycopg_pool import ConnectionPool

            pool = ConnectionPool(
                url,
                min_size=1,
                max_size=4,
                open=False,
                timeout=CONNECT_TIMEOUT,
                check=ConnectionPool.check_connection,
                kwargs={
                    "autocommit": True,
                    "connect_timeout": CONNECT_TIMEOUT,
                    "application_name": "toon-memory",
                },
            )
            pool.open(wait=False)
            _POOLS[url] = pool
        return pool


@contextmanager
def connection(url: str) -> Iterator[psycopg.Connection[tuple[Any, ...]]]:
    """A pooled connection to ``url``; every database failure becomes ``DatabaseError``."""
    require_driver()
    import psycopg
    from psycopg_pool import PoolTimeout

    try:
        with _pool(url).connection() as conn:
            yield conn
    except PoolTimeout as exc:
        _discard(url)
        raise DatabaseError(
            f"cannot reach the team database {describe(url)} within {CONNECT_TIMEOUT} s "
            "(is PostgreSQL running, and the URL right?); nothing was changed"
        ) from exc
    except psycopg.OperationalError as exc:
        _discard(url)
        raise DatabaseError(
            f"the team database {describe(url)} went away or refused: {_first_line(exc)}; "
            "nothing was acknowledged, try again"
        ) from exc
    except psycopg.Error as exc:
        raise DatabaseError(
            f"the team database {describe(url)} refused a statement: {_first_line(exc)}"
        ) from exc


def run(url: str, work: Callable[[psycopg.Connection[tuple[Any, ...]]], T]) -> T:
    """``work`` on a pooled connection (``connection`` translates the errors)."""
    with connection(url) as conn:
        return work(conn)


def _discard(url: str) -> None:
    """Drop a pool that could not connect: the next call opens a new one, which connects at
    once, instead of waiting out the old pool's growing reconnect delay."""
    with _GUARD:
        pool = _POOLS.pop(url, None)
    if pool is not None:
        pool.close(timeout=0)


def close_pool(url: str) -> None:
    """Close the pool of ``url`` in this process, if there is one."""
    with _GUARD:
        pool = _POOLS.pop(url, None)
    if pool is not None:
        pool.close()


def close_all() -> None:
    """Close every pool of this process (tests; a server on its way out)."""
    with _GUARD:
        pools = list(_POOLS.values())
        _POOLS.clear()
    for pool in pools:
        pool.close()


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__
