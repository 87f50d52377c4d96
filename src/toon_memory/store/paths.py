"""Where a memory lives on disk.

Invariant: project discovery never picks the home folder (it holds the
global store), never climbs above the repository root, and honours
``--project`` / ``TOON_MEMORY_PROJECT`` first; a folder named by
``TOON_MEMORY_PROJECT`` must exist, so a typo never creates a new memory (the
CLI checks ``--project`` the same way). Only computes
paths; the filesystem accesses are ``exists`` checks while walking up and
resolving.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

STORE_DIR = ".toon-memory"


def home_dir() -> Path:
    """The user's home, or ``TOON_MEMORY_HOME`` (tests point it at a temp dir)."""
    override = os.environ.get("TOON_MEMORY_HOME", "").strip()
    return Path(override).expanduser() if override else Path.home()


def find_project_root(start: Path | str | None = None) -> Path:
    """The project a command in ``start`` (default: cwd) works on.

    Walk up to the repository root (first folder holding ``.git``); the
    nearest folder holding ``.toon-memory/`` wins, else the repository root,
    else ``start`` itself. The home folder is skipped as a project, and the
    file-system root is never one: a server started in ``/`` (Cline does)
    gets the home folder, whose memory is the global one.
    """
    override = os.environ.get("TOON_MEMORY_PROJECT", "").strip()
    if start is None and override:
        return _existing(Path(override).expanduser().resolve(), "TOON_MEMORY_PROJECT")
    here = Path(start if start is not None else os.getcwd()).expanduser().resolve()
    home = home_dir().resolve()
    for folder in (here, *here.parents):
        if folder != home and (folder / STORE_DIR).is_dir():
            return folder
        if (folder / ".git").exists():
            return folder
    if here == Path(here.anchor):  # a server started in "/" works on the global memory
        return home
    return here


def inside_a_memory(path: Path) -> bool:
    """Does ``path`` (resolved) lie in a memory's own folder or its cache
    (``…/.toon-memory/memory/…``, ``…/.toon-memory/cache/…``)? Writing there by hand would
    overwrite the memory's own files."""
    return any(p.name in ("memory", "cache") and p.parent.name == STORE_DIR
               for p in path.resolve().parents)  # fmt: skip


def _existing(folder: Path, field: str) -> Path:
    """``folder`` when it is an existing folder; InputError naming ``field`` otherwise."""
    if not folder.is_dir():
        from toon_memory.errors import InputError

        what = "is a file" if folder.exists() else "does not exist"
        raise InputError(field, f"{folder} {what}; name an existing project folder")
    return folder


@dataclass(frozen=True)
class MemoryPaths:
    """Every file of one memory folder (``<root>/.toon-memory/memory``).

    A project's memory is ``data.toon`` (+ ``journal.jsonl``, ``archive.toon``…); the
    global memory is the seeds' ``~/.toon-memory/memory/global.toon``, its other files
    named after it (``global-journal.jsonl``…) so it never shares one with a memory of
    the home folder. A global memory written before that (``data.toon`` there, no
    ``global.toon``) is read and written where it is. Each file's path is made once
    (a long-lived process asks for them on every call).
    """

    folder: Path
    #: The name the memory's files take: ``data`` (a project's) or ``global``.
    stem: str = "data"

    @classmethod
    def for_project(cls, root: Path) -> MemoryPaths:
        return cls(root / STORE_DIR / "memory")

    @classmethod
    def for_global(cls) -> MemoryPaths:
        folder = home_dir() / STORE_DIR / "memory"
        legacy = (folder / "data.toon").exists() and not (folder / "global.toon").exists()
        return cls(folder) if legacy else cls(folder, "global")

    def _named(self, suffix: str) -> Path:
        """``data.toon``/``journal.jsonl`` for a project; ``global.toon``/``global-journal.jsonl``."""
        if self.stem == "data":
            return self.folder / suffix
        return self.folder / (
            f"{self.stem}.toon" if suffix == "data.toon" else f"{self.stem}-{suffix}"
        )

    @cached_property
    def data(self) -> Path:
        return self._named("data.toon")

    @cached_property
    def archive(self) -> Path:
        return self._named("archive.toon")

    @cached_property
    def config(self) -> Path:
        return self.folder / "config.json"

    @property
    def backups(self) -> Path:
        return self.folder / "backups"

    @cached_property
    def journal(self) -> Path:
        return self._named("journal.jsonl")

    @cached_property
    def access_log(self) -> Path:
        return self._named("access.log")

    @property
    def lock(self) -> Path:
        return self.folder / (".lock" if self.stem == "data" else f".{self.stem}.lock")

    @property
    def cache(self) -> Path:
        """The derived cache file: under the user's home, never in the project.

        A cache is unpickled, so it must be one only this user wrote: a file
        committed to a cloned repository is never read.
        """
        import hashlib

        named = str(self.folder.resolve()) + ("" if self.stem == "data" else f"#{self.stem}")
        digest = hashlib.sha256(named.encode()).hexdigest()[:24]
        return home_dir() / STORE_DIR / "cache" / f"{digest}.pickle"

    @property
    def gitignore(self) -> Path:
        return self.folder / ".gitignore"
