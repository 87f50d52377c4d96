"""The one error tree of toon-memory.

Invariant: every error the package raises on purpose derives from
``ToonMemoryError``; adapters (CLI exit codes, MCP tool errors) translate
only these, and only at the edge.

    ToonMemoryError
    ├── InputError            bad input from a caller (exit code 2); names the field
    │   ├── NotFoundError     an id or key that matches no entry
    │   └── ImportFormatError an import file that cannot be read at all (field ``file``)
    ├── StoreError            the store cannot do its job (exit code 1)
    │   ├── CorruptFileError  a file that does not decode; names file and line
    │   ├── NewerFormatError  a file written by a newer toon-memory
    │   ├── LockTimeoutError  the store lock could not be taken in time
    │   └── FileAccessError   the OS refused a file operation; names the path and what to do
    │       └── ReadOnlyMemoryError  a change asked of a memory that cannot be written
    │   └── EncryptionError   a missing or wrong key, a file that fails authentication
    ├── AccessDeniedError     a team token's role does not allow the call; names the role
    ├── SyncError             git or GitHub refused a sharing step; says what to do
    ├── RemoteError           a team server (``--server``) unreachable, refusing the
    │                         token or failing a call; names the URL, never the token
    └── AgentConfigError      an agent's config file the installer will not edit;
                              names file and line, the file is left untouched
"""

from __future__ import annotations

from pathlib import Path

#: Most characters of a given value an error message quotes.
QUOTE = 40


def quote(value: object, most: int = QUOTE) -> str:
    """A short rendering of a caller's value for a message: an error never echoes a huge
    input, and its text is always encodable (a lone surrogate shows escaped, as ``repr``
    does). A text longer than ``most`` shows its first ``most`` characters and how many
    more there were; an object or a list is named, not shown; a huge number is named."""
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 128:
        return "a very large number"
    if isinstance(value, str) and len(value) > most:
        return f"{value[:most]!r} (+{len(value) - most} more characters)"
    text = repr(value)
    return text if len(text) <= most else text[: most - 3] + "..."


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
        super().__init__(field, f"no entry with id or key {quote(value)}")
        self.value = value


class StoreError(ToonMemoryError):
    """The store could not read or write its files."""


#: What to do about a damaged file of the memory itself (data.toon, archive.toon).
RESTORE_ADVICE = (
    "the file was left untouched; run `toon-memory doctor`, or `toon-memory restore` "
    "to bring back the newest good backup"
)
#: What to do about a damaged settings file (config.json, SESSION-STATE.json).
FIX_ADVICE = "the file was left untouched; fix it, or move it aside to start from defaults"


class CorruptFileError(StoreError):
    """A store file does not decode. It is never overwritten.

    ``advice`` says what to do; ``restore`` is suggested only for the
    memory's own files (the default), never for settings or foreign files.
    """

    def __init__(
        self, path: Path, line: int | None, problem: str, advice: str = RESTORE_ADVICE
    ) -> None:
        self.path = path
        self.line = line
        self.problem = problem
        where = f"{path}:{line}" if line else str(path)
        super().__init__(f"{where}: {problem} ({advice})")


class NewerFormatError(StoreError):
    """A memory file written by a newer toon-memory than this one (never overwritten)."""

    def __init__(self, path: Path, version: object, supported: int) -> None:
        self.path = path
        super().__init__(
            f"{path}: format version {version} is newer than this toon-memory reads "
            f"(up to {supported}); upgrade toon-memory (the file was left untouched)"
        )


class LockTimeoutError(StoreError):
    """Another process held the store lock for too long."""


class FileAccessError(StoreError):
    """The operating system refused a file operation (permission, disk full, wrong kind).

    ``path`` is the file or folder at fault, ``problem`` what went wrong and
    ``advice`` what the user can do; the message is one line.
    """

    def __init__(self, path: Path | str, problem: str, advice: str) -> None:
        self.path = Path(path)
        self.problem = problem
        self.advice = advice
        super().__init__(f"{path}: {problem}; {advice}")


class ReadOnlyMemoryError(FileAccessError):
    """A change was asked of a memory whose folder cannot be written; reads still work."""


class DatabaseError(StoreError):
    """The team database (PostgreSQL) could not be reached or refused a statement. The
    message names the server (never a password) and says what to do; nothing was
    acknowledged when it is raised."""


class ImportFormatError(InputError):
    """An import file is in no format we can read (names the file; field ``file``)."""

    def __init__(self, problem: str) -> None:
        super().__init__("file", problem)


class EncryptionError(StoreError):
    """An encrypted file cannot be opened (no key, a wrong key, a changed byte), or an
    encrypt/decrypt step was asked of a memory already in that state. Never names a
    secret or the passphrase; nothing was written when it is raised."""


class AccessDeniedError(ToonMemoryError):
    """A team token asked for what its role does not allow (a read token calling a writing
    tool); the message names the token and its role, and nothing was changed."""


class SyncError(ToonMemoryError):
    """Sharing failed outside our files: git, or the GitHub API (a bad token, a rate limit,
    an unknown gist). The message says what to do and never holds a token."""


class RemoteError(ToonMemoryError):
    """A team server given by ``--server`` could not be reached, refused the token, or
    answered a tool call with an error (its text passed through). The message names the
    URL and the token's environment variable, never the token itself."""


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
