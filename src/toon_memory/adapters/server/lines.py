"""The stdio server's pipes: protocol lines in from stdin, answers out to stdout.

Invariant: while claimed, the protocol is read from a private duplicate of fd 0
and written to a private duplicate of fd 1, fd 0 points at the null device and
fd 1 at stderr, so no child process (git, an LLM CLI) can read the client's
messages or write into the answers; ``release`` puts both back. A pipe or a
socket is served from the event loop itself, non-blocking, its readiness
awaited: no thread hop per message, and a client that stops reading never
blocks the loop (its answers wait, other requests go on). Anything else (a
file, a terminal) is read by a blocking read in a worker thread, abandoned,
never waited for, when the server stops, and written by the SDK's own writer.
Every line reaches the SDK as text it parses whenever the line is JSON at all
(``wire.repair``; bytes that are not UTF-8 become lone surrogates first, so
they are refused as invalid Unicode too; a line longer than ``LONG`` is
repaired in a worker thread). At end of input, ``before_end`` is awaited
first (the server lets running calls finish and answer, within a bound),
then ``ended`` is set and iteration stops. No ``mcp`` import.
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys
from collections.abc import Awaitable, Callable
from typing import BinaryIO

import anyio
import anyio.to_thread

from toon_memory.adapters.server.wire import repair

#: A line longer than this is decoded and repaired in a worker thread, not in the loop.
LONG = 1 << 20
#: Bytes read from the pipe at a time.
CHUNK = 1 << 16


def as_text(raw: bytes) -> str:
    """A protocol line as text the SDK can parse (``wire.repair``)."""
    try:
        text, utf8 = raw.decode("utf-8"), True
    except UnicodeDecodeError:
        text, utf8 = raw.decode("utf-8", "surrogateescape"), False
    fixed = repair(text)
    if fixed is not None:
        return fixed + "\n"
    return text if utf8 else raw.decode("utf-8", "replace")  # not JSON: as the SDK reads it


def _read_line(stream: BinaryIO) -> str | None:
    """The next line as text the SDK can parse, None at end of input (a blocking read)."""
    raw = stream.readline()
    return as_text(raw) if raw else None


def _pollable(fd: int) -> bool:
    """Can ``fd`` be awaited by the event loop (a pipe or a socket, on POSIX)?"""
    if os.name != "posix":
        return False
    try:
        mode = os.fstat(fd).st_mode
    except OSError:
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


def _claim(fd: int, divert: Callable[[], int]) -> int | None:
    """A private, non-inheritable duplicate of ``fd`` once ``fd`` points at what
    ``divert`` opens; None (``fd`` left as it was) when that cannot be done."""
    try:
        private = os.dup(fd)
        os.set_inheritable(private, False)
    except OSError:
        return None
    try:
        other = divert()
        os.dup2(other, fd)
        os.close(other)
    except OSError:
        os.close(private)
        return None
    return private


def _null_in() -> int:
    return os.open(os.devnull, os.O_RDONLY)


def _stderr_out() -> int:
    try:
        return os.dup(2)
    except OSError:
        return os.open(os.devnull, os.O_WRONLY)


class Pipes:
    """stdin and stdout claimed (see the module invariant): ``lines`` reads, ``out``
    writes (None: the SDK writes stdout itself, claiming it as it does)."""

    def __init__(self, before_end: Callable[[], Awaitable[None]] | None = None) -> None:
        self._restore: list[tuple[int, int, bool]] = []  # (fd, private copy, was blocking)
        source = self._take(0, sys.stdin, _null_in)
        self.lines = StdinLines(source, before_end)
        sink = self._take(1, sys.stdout, _stderr_out, only_polled=True)
        self.out = StdoutLines(sink) if isinstance(sink, int) else None

    def _take(
        self, fd: int, stream: object, divert: Callable[[], int], only_polled: bool = False
    ) -> int | BinaryIO | None:
        """The private fd (polled), a blocking stream, or None (left to the SDK)."""
        buffer: BinaryIO | None = getattr(stream, "buffer", None)
        try:
            ours = buffer is not None and buffer.fileno() == fd
        except (OSError, ValueError):
            ours = False
        polled = ours and _pollable(fd)
        if not ours or (only_polled and not polled):
            return None if only_polled else buffer
        private = _claim(fd, divert)
        if private is None:
            return None if only_polled else buffer
        blocking = os.get_blocking(private)
        self._restore.append((fd, private, blocking))
        if polled:
            os.set_blocking(private, False)
            return private
        return os.fdopen(private, "rb", closefd=False)

    def release(self) -> None:
        """Point fd 0 and fd 1 back at the client's streams (the private copies stay
        open: a thread may still be blocked reading one, see SDK #1933)."""
        for fd, private, blocking in self._restore:
            with contextlib.suppress(OSError):
                os.set_blocking(private, blocking)
                os.dup2(private, fd)
        self._restore = []


class StdinLines:
    """Async iterator over the protocol lines of stdin (see the module invariant)."""

    def __init__(
        self, source: int | BinaryIO | None, before_end: Callable[[], Awaitable[None]] | None
    ) -> None:
        self.ended = anyio.Event()
        #: Tool calls read so far (the server waits for their answers at end of input).
        self.calls = 0
        self._before_end = before_end
        self._source = source
        self._buffer = bytearray()
        self._scanned = 0  # bytes of ``_buffer`` known to hold no newline
        self._eof = source is None

    def __aiter__(self) -> StdinLines:
        return self

    async def __anext__(self) -> str:
        source = self._source
        if isinstance(source, int):
            line = await self._polled(source)
        elif source is None:
            line = None
        else:
            line = await anyio.to_thread.run_sync(_read_line, source, abandon_on_cancel=True)
        if line is None:
            if self._before_end is not None:
                await self._before_end()
            self.ended.set()
            raise StopAsyncIteration
        if '"tools/call"' in line:
            self.calls += 1
        return line

    async def _polled(self, fd: int) -> str | None:
        raw = await self._raw_line(fd)
        if raw is None:
            return None
        if len(raw) > LONG:
            return await anyio.to_thread.run_sync(as_text, raw)
        return as_text(raw)

    async def _raw_line(self, fd: int) -> bytes | None:
        """The next line's bytes (the last one may lack its newline), None at the end."""
        buffer = self._buffer
        while True:
            end = buffer.find(b"\n", self._scanned)
            if end >= 0:
                raw = bytes(buffer[: end + 1])
                del buffer[: end + 1]
                self._scanned = 0
                return raw
            self._scanned = len(buffer)
            if self._eof:
                raw, self._scanned = bytes(buffer), 0
                buffer.clear()
                return raw or None
            try:
                chunk = os.read(fd, CHUNK)
            except BlockingIOError:
                await anyio.wait_readable(fd)
                continue
            except OSError:  # the client's end is gone: as the end of input
                chunk = b""
            if chunk:
                buffer += chunk
            else:
                self._eof = True


class StdoutLines:
    """The SDK's stdout (``write``, ``flush``) over a non-blocking pipe: what the pipe
    cannot take now is written when it can, the loop never blocked meanwhile."""

    def __init__(self, fd: int) -> None:
        self._fd = fd

    async def write(self, text: str) -> None:
        data = memoryview(text.encode("utf-8"))
        while data:
            try:
                data = data[os.write(self._fd, data) :]
            except BlockingIOError:
                await anyio.wait_writable(self._fd)

    async def flush(self) -> None:
        """Nothing is buffered here."""
