"""The team store: one memory per project in a PostgreSQL database, shared by many servers.

Invariant: the database is the truth of a team memory, as data.toon plus journal is of a
local one; every write is one transaction under its project's row lock, applying the same
operations (``store.journal.Op``) the file store journals, so the merge rules and the
ranking are the file store's own code, run over the same ``State``.

The package itself holds only the choice of store (``database_url``): every ``Memory``
asks it, so it imports nothing a file memory does not need (psycopg, pools, threads).
"""

from __future__ import annotations

import os

from toon_memory.errors import InputError

URL_ENV = "TOON_MEMORY_DATABASE_URL"


def database_url(given: str | None = None) -> str | None:
    """``given``, else (None) ``TOON_MEMORY_DATABASE_URL``; None means the file store
    (``given`` of ``""`` asks for the files whatever the environment says)."""
    url = (os.environ.get(URL_ENV, "") if given is None else given).strip()
    if not url:
        return None
    if not url.startswith(("postgresql://", "postgres://")):
        raise InputError("database", "a PostgreSQL URL starts with postgresql://")
    return url
