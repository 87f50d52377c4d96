"""The stdio server's input: one JSON-RPC message per line, each made answerable.

Invariant: while claimed, the protocol is read from a private duplicate of
fd 0 and fd 0 itself points at the null device, so no child process (git, an
LLM CLI) can read the client's messages; ``release`` puts fd 0 back. Every
line reaches the SDK as text it parses whenever the line is JSON at all
(``wire.repair``; bytes that are not UTF-8 become lone surrogates first, so
they are refused as invalid Unicode too). At end of input, ``before_end``
is awaited first (the server lets running calls finish and answer, within
a bound), then ``ended`` is set and iteration stops. The blocking read and
the repair run in a worker thread that is abandoned, never waited for, when
the server stops. No ``mcp`` import.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Awaitable, Callable
from typing import BinaryIO

import anyio
import anyio.to_thread

from toon_memory.adapters.server.wire import repair


def _read_line(stream: BinaryIO) -> str | None:
    """The next line as text the SDK can parse, None at end of input."""
    raw = stream.readline()
    if not raw:
        return None
    try:
        text, utf8 = raw.decode("utf-8"), True
    except UnicodeDecodeError:
        text, utf8 = raw.decode("utf-8", "surrogateescape"), False
    fixed = repair(text)
    if fixed is not None:
        return fixed + "\n"
    return text if utf8 else raw.decode("utf-8", "replace")  # not JSON: as the SDK reads it


class StdinLines:
    """Async iterator over the protocol lines of stdin (see the module invariant)."""

    def __init__(self, before_end: Callable[[], Awaitable[None]] | None = None) -> None:
        self.ended = anyio.Event()
        #: Tool calls read so far (the server waits for their answers at end of input).
        self.calls = 0
        self._before_end = before_end
        self._private: int | None = None
        self._stream: BinaryIO = sys.stdin.buffer
        self._claim()

    def _claim(self) -> None:
        """Serve from a duplicate of fd 0 and point fd 0 at the null device (best effort)."""
        try:
            if sys.stdin.buffer.fileno() != 0:
                return
            private = os.dup(0)
            os.set_inheritable(private, False)
        except (AttributeError, OSError, ValueError):
            return
        try:
            null = os.open(os.devnull, os.O_RDONLY)
            os.dup2(null, 0)
            os.close(null)
        except OSError:
            os.close(private)
            return
        self._private = private
        self._stream = os.fdopen(private, "rb", closefd=False)

    def release(self) -> None:
        """Point fd 0 back at the client's stream (the private copy stays open, see SDK #1933)."""
        if self._private is not None:
            with contextlib.suppress(OSError):
                os.dup2(self._private, 0)
            self._private = None

    def __aiter__(self) -> StdinLines:
        return self

    async def __anext__(self) -> str:
        line = await anyio.to_thread.run_sync(_read_line, self._stream, abandon_on_cancel=True)
        if line is None:
            if self._before_end is not None:
                await self._before_end()
            self.ended.set()
            raise StopAsyncIteration
        if '"tools/call"' in line:
            self.calls += 1
        return line
