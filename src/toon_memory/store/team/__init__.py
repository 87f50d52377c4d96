"""The team store: one memory per project in a PostgreSQL database, shared by many servers.

Invariant: the database is the truth of a team memory, as data.toon plus journal is of a
local one; every write is one transaction under its project's row lock, applying the same
operations (``store.journal.Op``) the file store journals, so the merge rules and the
ranking are the file store's own code, run over the same ``State``.
"""
