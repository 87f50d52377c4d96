"""The team server: every project of a team database at ``POST /mcp/<project>``.

Invariants:
- Every HTTP request passes ``TeamGuard`` first: a path other than ``/mcp`` (project
  ``default``) or ``/mcp/<project>`` gets 404, a foreign ``Origin`` 403, a missing,
  unknown or revoked bearer token 401 (looked up in the database on every request, so
  a revocation holds from the next request on, on every server), a token limited to
  another project 403; only then does the request reach MCP, as the caller
  (``CALLER``: project and grant) its tool calls run as.
- Stateless between requests (the SDK's stateless Streamable HTTP): any request may
  reach any server process of the database, and each call reads the project's current
  state from the database (``TeamStore``), so a write through one server is seen by the
  next call through another.
- A read token's call of a tool not declared read-only (``ToolSpec.read_only``, the one
  declaration) is a tool error naming the role; every write carries the token's name as
  its author (``Memory.author``, stamped as ``meta.author``).
- Calls on one project run one at a time in this process (a lock per project); calls on
  different projects run side by side.
- While it serves, a write notice (``Team.listen``) for a project this process has opened
  refreshes that project's ``Memory`` (its index, or its state) under the same lock, in
  the ``Refresher``'s thread: the next call finds it caught up. Notices for projects never
  opened are ignored; ``close`` stops the listener and that thread.
- Plain HTTP is served on loopback only unless ``--insecure-http`` says otherwise: TLS
  belongs to a reverse proxy in front (README, "Team server").
"""

from __future__ import annotations

import contextlib
import sys
import threading
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NoReturn, Protocol, TypeVar

from toon_memory.adapters.server.app import STOP_WAIT, ToonMemoryServer, error_result
from toon_memory.adapters.server.heartbeat import ServerSession
from toon_memory.adapters.server.http import (
    LOOPBACK,
    allowed_hosts,
    bearer,
    foreign_origin,
    repaired,
    reply,
    request_headers,
    serve,
    unauthorized,
)
from toon_memory.adapters.server.tools import BY_NAME
from toon_memory.errors import DatabaseError, InputError, StoreError, ToonMemoryError

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from mcp.server.mcpserver import Context
    from mcp_types import CallToolResult

    from toon_memory.adapters.server.specs import ToolSpec
    from toon_memory.adapters.server.team_fresh import Refresher
    from toon_memory.memory.api import Memory
    from toon_memory.memory.team import Grant, Team

T = TypeVar("T")
Scope = dict[str, Any]
#: The path prefix of the projects: ``/mcp`` is project ``default``, ``/mcp/<name>`` one.
PREFIX = "/mcp"
#: Advice of every refusal to serve plain HTTP beyond loopback.
TLS_ADVICE = (
    "put TLS in front (Caddy or nginx on this host, see the README's 'Team server') and "
    "bind 127.0.0.1, or pass --insecure-http on a network you trust"
)


class _Stops(Protocol):
    """What the server keeps of its listener (``Team.listen``): a way to stop it."""

    def stop(self, timeout: float = ...) -> bool: ...


@dataclass(frozen=True, slots=True)
class Caller:
    """Who a request is from (its token's grant) and which project it is for."""

    project: str
    grant: Grant


#: The caller of the request being handled (set by ``TeamGuard`` for the request's tasks).
CALLER: ContextVar[Caller | None] = ContextVar("toon_memory_caller", default=None)


def project_of(path: str) -> str | None:
    """The project a request path names (``/mcp`` -> ``default``), else None (404)."""
    from toon_memory.memory.team import DEFAULT_PROJECT, check_project

    rest = path.rstrip("/")
    if rest == PREFIX:
        return DEFAULT_PROJECT
    head, _, name = rest.rpartition("/")
    if head != PREFIX:
        return None
    try:
        return check_project(name)
    except InputError:
        return None


class TeamGuard:
    """ASGI middleware: route by project (404), Origin (403), token (401), project (403)."""

    def __init__(self, app: Any, team: Team, hosts: frozenset[str]) -> None:
        self.app = app
        self.team = team
        self.hosts = hosts

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        project = project_of(scope.get("path", ""))
        if project is None:
            await reply(send, 404, "Not Found: the projects are at /mcp/<project>")
            return
        headers = request_headers(scope)
        if foreign_origin(headers, self.hosts):
            await reply(send, 403, "Forbidden: Origin not allowed")
            return
        grant = await self._grant(bearer(headers), send)
        if grant is None:
            return
        if not grant.reaches(project):
            await reply(send, 403, f"Forbidden: the token {grant.name!r} is for project "
                        f"{grant.project!r}, not {project!r}")  # fmt: skip
            return
        if scope.get("method") == "POST":
            scope, receive = await repaired(scope, receive)
        inner = {**scope, "path": PREFIX, "raw_path": PREFIX.encode()}
        mark = CALLER.set(Caller(project, grant))
        try:
            await self.app(inner, receive, send)
        finally:
            CALLER.reset(mark)

    async def _grant(self, token: str | None, send: Any) -> Grant | None:
        """The token's grant; None once the refusal (401, or 503) is sent."""
        import anyio.to_thread

        if not token:
            await unauthorized(send)
            return None
        try:
            grant = await anyio.to_thread.run_sync(self.team.authenticate, token)
        except DatabaseError as exc:
            await reply(send, 503, f"Service Unavailable: {exc}")
            return None
        if grant is None:
            await unauthorized(send)
        return grant


class _NoSession(ServerSession):
    """A team server beats no session heartbeat: its callers are on other machines."""

    def start(self, memory: Memory) -> None:
        return None

    def after_call(self, memory: Memory, spec: ToolSpec, arguments: Mapping[str, Any]) -> None:
        return None

    def end(self, memory: Memory) -> None:
        return None


def caller() -> Caller:
    """The caller of the request being handled (``TeamGuard`` set it)."""
    found = CALLER.get()
    if found is None:  # only a request that bypassed the guard could get here
        raise StoreError("no caller: every team request passes the token check first")
    return found


class TeamServer(ToonMemoryServer):
    """The MCP server over every project of one team database (``Team``)."""

    def __init__(self, team: Team) -> None:
        super().__init__(None)
        self.team = team
        self._locks: dict[str, threading.Lock] = {}
        self._locks_guard = threading.Lock()
        self._quiet = _NoSession()
        self._listener: _Stops | None = None
        self._refresher: Refresher | None = None

    def session(self) -> ServerSession:
        return self._quiet

    def memory(self) -> Memory:
        return self.team.memory(caller().project)

    def _lock(self, project: str) -> threading.Lock:
        with self._locks_guard:
            return self._locks.setdefault(project, threading.Lock())

    async def run_memory(self, func: Callable[[Memory], T]) -> T:
        """``func`` on the caller's project, as the caller (the author of its writes)."""
        who = caller()

        def work() -> T:
            memory = self.team.memory(who.project)
            memory.author = who.grant.name
            try:
                return func(memory)
            finally:
                memory.author = ""

        return await self.in_worker(self._lock(who.project), work)

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Context[Any, Any] | None = None
    ) -> CallToolResult:
        spec = BY_NAME.get(name)
        if spec is not None:
            try:
                caller().grant.check_call(spec.name, spec.read_only)
            except ToonMemoryError as exc:
                return error_result(spec, exc)
        return await super().call_tool(name, arguments, context)

    # -- pushed freshness -------------------------------------------------
    def listen(self) -> None:
        """Refresh each opened project a write notice names (see the module's docstring)."""
        from toon_memory.adapters.server.team_fresh import Refresher

        if self._listener is None:
            self._refresher = Refresher(self._refresh)
            self._listener = self.team.listen(self._refresher.heard)

    def _refresh(self, project: str) -> None:
        memory = dict(self.team.opened()).get(project)
        refresher = self._refresher
        if memory is None or refresher is None:
            return  # never opened here: its first call reads the head
        lock = self._lock(project)
        if not refresher.wait_lock(lock):
            return
        try:
            memory.refresh()
        finally:
            lock.release()

    def _stop_listening(self, wait: float | None) -> None:
        listener, refresher = self._listener, self._refresher
        self._listener = self._refresher = None
        for part in (listener, refresher):
            if part is not None:
                part.stop(5.0 if wait is None else max(wait, 1.0))

    def close(self, wait: float | None = None) -> bool:
        """Stop the listener, then close every project opened (each waits at most ``wait`` s
        for its running call)."""
        self._stop_listening(wait)
        done = True
        for project, memory in self.team.opened():
            lock = self._lock(project)
            if not lock.acquire(timeout=-1 if wait is None else wait):
                done = False
                continue
            try:
                memory.close()
            finally:
                lock.release()
        return done


def check_host(host: str, insecure: bool) -> None:
    """Refuse plain HTTP beyond loopback unless ``--insecure-http``."""
    if host not in LOOPBACK and not insecure:
        raise InputError("host", f"refusing to serve the team memory on {host} over plain "
                         f"HTTP: {TLS_ADVICE}")  # fmt: skip


def run_team(team: Team, host: str, port: int, insecure: bool = False) -> NoReturn:
    """Serve every project of ``team``'s database until interrupted, then exit."""
    from mcp.server.transport_security import TransportSecuritySettings

    check_host(host, insecure)
    team.check()
    server = TeamServer(team)
    server.own_process()
    server.listen()
    # Behind a proxy the Host header is the public name: the guard's Origin check and the
    # bearer token stand in for the SDK's Host check (DNS rebinding needs neither).
    security = TransportSecuritySettings(enable_dns_rebinding_protection=False)
    inner = server.streamable_http_app(host=host, stateless_http=True, transport_security=security)
    app = TeamGuard(inner, team, allowed_hosts(host))
    shown = f"[{host}]" if ":" in host else host
    print(f"toon-memory team MCP on http://{shown}:{port}/mcp/<project> "
          f"(database {team.describe()}; side files in {team.home})", file=sys.stderr,
          flush=True)  # fmt: skip
    with contextlib.suppress(KeyboardInterrupt):
        serve(app, host, port)
    server.stop(wait=STOP_WAIT / 4)
