"""``Listener``: the team database's write notices (``LISTEN toon_memory``), pushed to a callback.

Invariants:
- One dedicated autocommit connection (never a pooled one: a pooled connection is shared
  and reset, a LISTEN must stay open), owned by one daemon thread; ``stop()`` ends the
  thread within about ``POLL`` seconds (``CONNECT_TIMEOUT`` at most while a connection
  is being made) and closes the connection, so no thread or connection outlives its owner.
- The callback hears each notice's payload (the project a write changed), in the
  listener's thread. A notice is a hint, never the truth: a reader still asks the
  project's revision on every call, so a lost notice only delays a warm-up.
- When the connection drops (a database restart, ``pg_terminate_backend``) it reconnects
  with a growing delay (``BACKOFF`` up to ``MAX_BACKOFF``), and after reconnecting calls
  the callback once for every project it was ever told of: a notice may have been sent
  while nobody listened.
- Nothing escapes the thread: a database error or a callback's exception is logged as
  one line naming the server (``database.describe``) with the password removed, and the
  thread goes on.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from toon_memory.store.team.database import CONNECT_TIMEOUT, describe, redacted, require_driver

log = logging.getLogger("toon_memory.store.team.listener")
#: The channel every write notifies (``TeamStore._write``).
CHANNEL = "toon_memory"
#: The ``application_name`` of a listener's connection (``pg_stat_activity`` shows it).
APPLICATION = "toon-memory-listener"
#: Seconds between two looks at the stop event while no notice comes.
POLL = 0.25
#: First and longest delay (s) before reconnecting.
BACKOFF = 0.1
MAX_BACKOFF = 5.0


class Listener:
    """Calls ``callback(project)`` for each write notice of the database at ``url``."""

    def __init__(self, url: str, callback: Callable[[str], None]) -> None:
        require_driver()
        self.url = url
        self._callback = callback
        self._stop = threading.Event()
        #: Set while the LISTEN is in place (cleared when the connection drops).
        self.listening = threading.Event()
        #: How many connections have listened so far (a reconnect makes it grow).
        self.connections = 0
        self._told: dict[str, None] = {}
        self._thread = threading.Thread(target=self._run, name="toon-memory-listener", daemon=True)

    def start(self) -> Listener:
        """Start listening in the background (returns at once; see ``listening``)."""
        self._thread.start()
        return self

    def alive(self) -> bool:
        return self._thread.is_alive()

    def stop(self, timeout: float = 5.0) -> bool:
        """End the thread (waiting at most ``timeout`` s) and close the connection; True
        when the thread is gone."""
        self._stop.set()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(timeout)
        return not self._thread.is_alive()

    def __enter__(self) -> Listener:
        return self.start()

    def __exit__(self, *_: object) -> None:
        self.stop()

    # -- the thread ------------------------------------------------------
    def _run(self) -> None:
        delay = BACKOFF
        while not self._stop.is_set():
            before = self.connections
            try:
                self._listen()
            except Exception as exc:  # nothing escapes the thread
                if self.connections > before:
                    delay = BACKOFF  # it had listened: the first retry comes quickly
                log.warning("listening to the team database %s: %s; again in %.1f s",
                            describe(self.url), redacted(self.url, exc), delay)  # fmt: skip
            self._stop.wait(delay)
            delay = min(delay * 2, MAX_BACKOFF)

    def _listen(self) -> None:
        """One connection's life: LISTEN, replay what may have been missed, deliver notices
        until stopped (returns) or dropped (raises)."""
        import psycopg

        conn = psycopg.connect(self.url, autocommit=True, connect_timeout=CONNECT_TIMEOUT,
                               application_name=APPLICATION, keepalives=1,
                               keepalives_idle=10, keepalives_interval=5,
                               keepalives_count=3)  # fmt: skip
        try:
            conn.execute(f"LISTEN {CHANNEL}")
            self.connections += 1
            self.listening.set()
            if self.connections > 1:
                for project in list(self._told):
                    self._deliver(project)
            while not self._stop.is_set():
                for notice in conn.notifies(timeout=POLL):
                    self._told.setdefault(notice.payload, None)
                    self._deliver(notice.payload)
                    if self._stop.is_set():
                        break
        finally:
            self.listening.clear()
            conn.close()

    def _deliver(self, project: str) -> None:
        try:
            self._callback(project)
        except Exception as exc:  # a callback's failure never ends the listening
            log.warning("a team notice for project %r: %s", project, redacted(self.url, exc))
