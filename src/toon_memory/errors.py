"""The one error tree of toon-memory.

Invariant: every error the package raises on purpose derives from
``ToonMemoryError``; adapters (CLI exit codes, MCP tool errors) translate
only these, and only at the edge.

    ToonMemoryError
    ├── InputError            bad input from a caller (exit code 2); names the field
    │   └── NotFoundError     an id or key that matches no entry
    ├── StoreError            the store cannot do its job (exit code 1)
    │   ├── CorruptFileError  a file that does not decode; names file and line
    │   └── LockTimeoutError  the store lock could not be taken in time
    ├── ImportFormatError     an import file that cannot be read at all
    ├── SyncError             git or GitHub refused a sharing step; says what to do
    └── AgentConfigError      an agent's config file the installer will not edit;
                              names file and line, the file is left untouched
"""

from __future__ import annotations

from pathlib import Path


class ToonMemoryError(Exception):
    """Base of every error raised by toon-memory on purpose."""

    exit_code = 1


class InputError(ToonMemoryError):
    """A caller passed a bad value. ``field`` names the parameter."""

    exit_code = 2

    def __init__(self, field: str, problem: str) -> None:
        self.field = field
        self.problem = problem
        super().__init__(f"{field}: {problem}")


class NotFoundError(InputError):
    """No entry matches the given id or key."""

    def __init__(self, field: str, value: str) -> None:
        super().__init__(field, f"no entry with id or key {value!r}")
        self.value = value


class StoreError(ToonMemoryError):
    """The store could not read or write its files."""


class CorruptFileError(StoreError):
    """A store file does not decode. It is never overwritten."""

    def __init__(self, path: Path, line: int | None, problem: str) -> None:
        self.path = path
        self.line = line
        where = f"{path}:{line}" if line else str(path)
        super().__init__(
            f"{where}: {problem} (the file was left untouched; run "
            "`toon-memory doctor`, or `toon-memory restore` to bring back the newest good backup)"
        )


class LockTimeoutError(StoreError):
    """Another process held the store lock for too long."""


class ImportFormatError(ToonMemoryError):
    """An import file is in no format we can read."""

    exit_code = 2


class SyncError(ToonMemoryError):
    """Sharing failed outside our files: git, or the GitHub API (a bad token, a rate limit,
    an unknown gist). The message says what to do and never holds a token."""


class AgentConfigError(ToonMemoryError):
    """An agent's config file that does not parse (or has an unexpected shape).

    The installer never writes such a file; ``line`` is 1-based or None.
    """

    def __init__(self, path: Path, line: int | None, problem: str) -> None:
        self.path = path
        self.line = line
        self.problem = problem
        where = f"{path}:{line}" if line else str(path)
        super().__init__(f"{where}: {problem} (the file was left untouched)")
