"""``context_health``: the findings of ``curation.health`` over the live store, with a cache.

Invariant: the findings are exactly ``curation.health_findings`` of the
store's entries, today, the project's files and the stale-session count, in
its order. The part that depends on the entries alone (orphan links,
duplicates, stale claims: the slow part, ~1 s at 10,000 entries) is cached
per store state (in this process and in a sidecar file under the user's
home), keyed on the identity of ``data.toon`` and the journal read *before*
the state, so a write that lands meanwhile can only cause a recompute,
never a stale answer. File checks, TTLs and sessions are
recomputed on every call (files come and go without a write to the memory).
"""

from __future__ import annotations

import fnmatch
import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from toon_memory.model.entry import Entry
    from toon_memory.rules.curation import Finding
    from toon_memory.store.store import Store

_GLOB = frozenset("*?[")


@dataclass(frozen=True)
class EntryFindings:
    """Findings that depend on the entries alone, in ``health_findings`` order."""

    orphans: tuple[Finding, ...]
    duplicates: tuple[Finding, ...]
    claims: tuple[Finding, ...]


def entry_findings(entries: Sequence[Entry]) -> EntryFindings:
    from toon_memory.rules.curation.consolidate import category_sets
    from toon_memory.rules.curation.health import duplicates, orphan_links, stale_claims

    groups = category_sets(entries)
    return EntryFindings(
        tuple(orphan_links(entries)),
        tuple(duplicates(entries, groups)),
        tuple(stale_claims(groups)),
    )


#: Bump when the entry-only findings change meaning (a rule of ``curation.health``).
FINDINGS_FORMAT = 1


class FindingsCache:
    """The entry-only findings of the last state seen, keyed on the store files' identity.

    Kept in this process and in a sidecar file under the user's home, so a
    new process (a CLI call) over an unchanged memory does not recompute them. The
    entries are read bare (no search engine built for them) and, when this process had
    no state loaded, let go after the call: a long-lived server over the on-disk index
    stays small.
    """

    def __init__(self) -> None:
        self._key: tuple[Any, ...] | None = None
        self._found: EntryFindings | None = None

    def findings(self, store: Store) -> tuple[list[Entry], EntryFindings]:
        """Every entry of the current state and its entry-only findings."""
        from toon_memory.memory.curation import every_entry
        from toon_memory.store.sidecar import load_sidecar, save_sidecar, sidecar_path

        entries = every_entry(store)
        key = (FINDINGS_FORMAT, _version(), *store.identity())
        if self._found is not None and key == self._key:
            return entries, self._found
        path = sidecar_path(store.paths, "findings")
        found = load_sidecar(path, key)
        if not isinstance(found, EntryFindings):
            found = entry_findings(entries)
            save_sidecar(path, key, found)
        self._found, self._key = found, key
        return entries, found


@functools.cache
def _version() -> str:
    """The installed package's version (findings cached by another version are not used)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("toon-memory")
    except PackageNotFoundError:
        return "unknown"


def file_checker(root: Path) -> Callable[[str], bool]:
    """``file_exists`` for ``health_findings``: a path (relative to ``root``) or a glob.

    A glob is true when any project file matches it; each answer is memoised
    (many entries name the same file).
    """
    known: dict[str, bool] = {}
    listing: list[str] = []

    def files() -> list[str]:
        if not listing:
            from toon_memory.project.files import project_files

            listing.extend(project_files(root) or [""])
        return listing

    def exists(path: str) -> bool:
        if path not in known:
            if _GLOB & set(path):
                pattern = path.lstrip("./")
                known[path] = any(fnmatch.fnmatchcase(name, pattern) for name in files())
            else:
                target = Path(path)
                known[path] = (target if target.is_absolute() else root / target).exists()
        return known[path]

    return exists


def all_findings(
    entries: Sequence[Entry],
    cached: EntryFindings,
    root: Path,
    stale_sessions: int,
) -> list[Finding]:
    """``health_findings`` with the entry-only part taken from ``cached``."""
    from toon_memory.model.clock import today
    from toon_memory.rules.curation.health import expired, file_problems, health_findings

    day = today()
    return [
        *cached.orphans,
        *cached.duplicates,
        *file_problems(entries, file_checker(root)),
        *expired(entries, day),
        *cached.claims,
        *health_findings((), day, lambda _: True, stale_sessions),  # the stale-session finding
    ]
