"""Export for ``Memory`` (``Transfer.export``): every entry and summary to a JSON file.

Invariant: the file holds every entry (all statuses, the state's order) and every
summary as ``{"version": 1, "entries": [...], "summaries": [...]}``
(``store.export_json``), byte for byte whichever way it was read; it lies outside
every memory folder, in a folder that exists (none is created), and replaces the
target atomically. The export never builds the search engine and never writes the
derived cache: where the on-disk index serves this memory (``index_sync.serves_writes``:
a CLI command, a big memory) and no state is loaded, the entries are streamed from
the index's rows, a chunk at a time; otherwise (an encrypted memory, a team store,
an index that cannot be read or that disagrees with the files) from the bare state.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from toon_memory.errors import InputError
from toon_memory.store.paths import inside_a_memory

if TYPE_CHECKING:
    from toon_memory.store.store import Store


def export(store: Store, path: str | Path) -> int:
    """Write every entry and summary of ``store`` to the JSON file ``path``; the entry count."""
    from toon_memory.store.export_json import write_export

    target = Path(path)
    check_target(store, target)
    count = _from_index(store, target)
    if count is None:
        state = store.bare_state()
        count = write_export(target, state.entries.values(), state.summaries.values())
    return count


def _from_index(store: Store, target: Path) -> int | None:
    """The export streamed from the on-disk index, or None when it cannot serve it."""
    from toon_memory.store.index_sync import serves_writes

    if store.loaded() is not None or store.local() or not serves_writes(store):
        return None
    from toon_memory.search.corpus import analyse
    from toon_memory.store.export_json import export_from_index

    db = store.index(analyse, None)
    if db is None:
        return None
    try:
        return export_from_index(store.paths, db, target)
    finally:
        db.close()


def check_target(store: Store, target: Path) -> None:
    """``InputError`` unless ``target`` names a file an export may replace."""
    if "\x00" in str(target):
        raise InputError("file", "holds a NUL character; no file can have that name")
    if target.is_dir():
        raise InputError("file", f"{target} is a folder; name a file")
    if target.exists() and not target.is_file():
        raise InputError("file", f"{target} is not a regular file (a device, a pipe?)")
    if not target.parent.is_dir():
        raise InputError("file", f"folder {target.parent} does not exist; create it first")
    own = store.paths.folder.resolve()
    if own in target.resolve().parents or inside_a_memory(target):
        raise InputError(
            "file",
            f"{target} is inside a memory folder; exporting there would overwrite the "
            "memory's own files: name a file outside it",
        )
