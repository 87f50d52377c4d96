"""Running the live viewer: serve, watch the memory files, stop cleanly.

Invariant: ``serve`` returns (after closing the listening socket and ending
every live-event stream) when any of these happens: Ctrl+C (SIGINT),
SIGTERM or SIGHUP, ``q`` on its terminal, end of input on a terminal or pipe
(the terminal or the parent that feeds it went away), or its parent process
exiting. Input that is not a terminal or pipe (``/dev/null``) is not watched.
"""

from __future__ import annotations

import contextlib
import os
import signal
import stat
import sys
import threading
import webbrowser
from collections.abc import Callable
from typing import TYPE_CHECKING, TextIO

from toon_memory.adapters.viewer.http import ViewerApp, ViewerServer
from toon_memory.adapters.viewer.watch import FileWatcher

if TYPE_CHECKING:
    from toon_memory.memory.api import Memory

PARENT_POLL = 1.0


def watches_input(stream: TextIO) -> bool:
    """Whether end of ``stream`` means "the terminal or parent went away"."""
    try:
        if stream.isatty():
            return True
        mode = os.fstat(stream.fileno()).st_mode
    except (OSError, ValueError):
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


def _read_keys(
    stream: TextIO, reload: Callable[[], None], stop: threading.Event, say: Callable[[str], None]
) -> None:
    """``r`` + Enter reloads, ``q`` + Enter quits; end of input stops the viewer."""
    try:
        for line in stream:
            word = line.strip().lower()
            if word == "r":
                reload()
                say("reloaded from disk")
            elif word == "q":
                break
    except (OSError, ValueError):
        pass
    stop.set()


def _watch_parent(parent: int, stop: threading.Event) -> None:
    while not stop.wait(PARENT_POLL):
        if os.getppid() != parent:
            stop.set()


def _daemon(target: Callable[..., None], *args: object) -> None:
    threading.Thread(target=target, args=args, daemon=True).start()


def _on_signals(stop: threading.Event) -> None:
    """SIGINT, SIGTERM and SIGHUP set ``stop``, even when this process was started with
    them ignored or blocked (both are inherited from the parent across exec)."""
    if threading.current_thread() is not threading.main_thread():
        return
    found = [getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP")
             if hasattr(signal, name)]  # fmt: skip
    for signum in found:
        signal.signal(signum, lambda *_: stop.set())
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, found)


def _start(
    server: ViewerServer, stdin: TextIO, stop: threading.Event, say: Callable[[str], None]
) -> FileWatcher:
    """Serve in the background and watch the memory files, the parent, the input, signals."""
    app = server.app
    paths = app.memory.paths
    watcher = FileWatcher([paths.data, paths.journal], app.changes.bump)
    _daemon(server.serve_forever, 0.1)
    watcher.start()
    _daemon(_watch_parent, os.getppid(), stop)
    if watches_input(stdin):
        _daemon(_read_keys, stdin, app.changes.bump, stop, say)
    _on_signals(stop)
    return watcher


def serve(
    memory: Memory, *, port: int = 0, open_browser: bool = True,
    out: TextIO | None = None, stdin: TextIO | None = None,
) -> int:  # fmt: skip
    """Serve the live viewer for ``memory`` on 127.0.0.1 until told to stop; return 0."""
    out = out or sys.stdout
    stdin = stdin or sys.stdin

    def say(text: str) -> None:
        with contextlib.suppress(OSError, ValueError):  # the terminal may be gone
            print(text, file=out, flush=True)

    app = ViewerApp(memory)
    server = ViewerServer(app, port)
    url = f"http://127.0.0.1:{app.port}/"
    stop = threading.Event()
    watcher = _start(server, stdin, stop, say)
    try:
        say(f"🧠 toon-memory viewer: {url}")
        say("   live: the page follows data.toon · r + Enter: reload · Ctrl+C: stop")
        if open_browser:
            webbrowser.open(url)
        while not stop.wait(0.5):
            pass
    except KeyboardInterrupt:
        pass
    finally:
        app.changes.close()
        watcher.stop()
        server.shutdown()
        server.server_close()
        say("viewer stopped")
    return 0
