"""Streamable HTTP mode: a bearer-token and Origin guard in front of the SDK's app.

Invariant: every HTTP request passes the guard first: a foreign ``Origin``
gets 403, a missing or wrong ``Authorization: Bearer`` token gets 401, and
only then does the request reach MCP, its body (up to ``MAX_BODY``)
repaired by ``wire.repair`` first, so a message the SDK's parser would
refuse (lone surrogates, nesting past its limit) gets the same answer as
over stdio: a tool error naming the argument. A token is always required: taken
from ``TOON_MEMORY_TOKEN``, generated (and printed to stderr) on a loopback
host, and the server refuses to start on any other host without one.
"""

from __future__ import annotations

import contextlib
import hmac
import os
import secrets
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any, NoReturn
from urllib.parse import urlsplit

from toon_memory.errors import InputError

LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1"})
Scope = dict[str, Any]
#: Largest body the guard reads to repair (the SDK refuses larger ones itself).
MAX_BODY = 4 * 1024 * 1024
#: Bodies shorter than this are checked on the event loop (no thread hop).
INLINE_REPAIR = 64 * 1024


def resolve_token(host: str) -> tuple[str, bool]:
    """(token, generated): the configured token, or a fresh one on loopback only."""
    token = os.environ.get("TOON_MEMORY_TOKEN", "").strip()
    if token:
        return token, False
    if host not in LOOPBACK:
        raise InputError("host", f"refusing to serve on {host} without TOON_MEMORY_TOKEN set")
    return secrets.token_urlsafe(32), True


def allowed_hosts(host: str) -> frozenset[str]:
    """Origin host names accepted: loopback, the bound host, TOON_MEMORY_ORIGINS entries."""
    extra = os.environ.get("TOON_MEMORY_ORIGINS", "")
    names = {urlsplit(o.strip()).hostname or o.strip() for o in extra.split(",") if o.strip()}
    return frozenset({*LOOPBACK, host, *names} - {"0.0.0.0", "::"})


def request_headers(scope: Scope) -> dict[str, str]:
    """A request's headers, names lower-cased."""
    return {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}


def foreign_origin(headers: dict[str, str], hosts: frozenset[str]) -> bool:
    """Does the request come from a page of a host not in ``hosts`` (403)?"""
    origin = headers.get("origin")
    return bool(origin) and urlsplit(origin).hostname not in hosts


def bearer(headers: dict[str, str]) -> str | None:
    """The ``Authorization: Bearer`` token of a request, else None."""
    scheme, _, given = headers.get("authorization", "").partition(" ")
    return given.strip() if scheme.lower() == "bearer" else None


async def unauthorized(send: Any) -> None:
    await reply(
        send,
        401,
        "Unauthorized: bearer token required",
        [(b"www-authenticate", b'Bearer realm="toon-memory"')],
    )


class Guard:
    """ASGI middleware: Origin check (403), then bearer token check (401)."""

    def __init__(self, app: Any, token: str, hosts: Iterable[str]) -> None:
        self.app = app
        self.token = token.encode()
        self.hosts = frozenset(hosts)

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = request_headers(scope)
        if foreign_origin(headers, self.hosts):
            await reply(send, 403, "Forbidden: Origin not allowed")
            return
        given = bearer(headers)
        if given is None or not hmac.compare_digest(given.encode(), self.token):
            await unauthorized(send)
            return
        if scope.get("method") == "POST":
            scope, receive = await repaired(scope, receive)
        await self.app(scope, receive, send)


def repair_body(body: bytes) -> bytes | None:
    """``body`` as ``wire.repair`` makes it answerable, or None when it needs nothing."""
    from toon_memory.adapters.server.wire import repair

    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        text = body.decode("utf-8", "surrogateescape")
    fixed = repair(text)
    return None if fixed is None else fixed.encode("utf-8")


async def repaired(scope: Scope, receive: Any) -> tuple[Scope, Any]:
    """(scope, receive) replaying the request body, repaired when it needs it."""
    import anyio.to_thread

    messages: list[dict[str, Any]] = []
    size, more = 0, True
    while more and size <= MAX_BODY:
        message = await receive()
        messages.append(message)
        if message["type"] != "http.request":
            break
        size += len(message.get("body", b""))
        more = bool(message.get("more_body", False))
    if not more and messages and messages[-1]["type"] == "http.request":
        body = b"".join(m.get("body", b"") for m in messages)
        if len(body) < INLINE_REPAIR:
            fixed = repair_body(body)
        else:  # a long scan: off the event loop, so other requests go on
            fixed = await anyio.to_thread.run_sync(repair_body, body)
        if fixed is not None:
            messages = [{"type": "http.request", "body": fixed, "more_body": False}]
            headers = [(k, v) for k, v in scope["headers"] if k.lower() != b"content-length"]
            scope = {**scope, "headers": [*headers, (b"content-length", b"%d" % len(fixed))]}

    async def replay() -> Any:
        return messages.pop(0) if messages else await receive()

    return scope, replay


async def reply(
    send: Any, status: int, text: str, extra: list[tuple[bytes, bytes]] | None = None
) -> None:
    body = text.encode()
    headers = [
        (b"content-type", b"text/plain; charset=utf-8"),
        (b"content-length", str(len(body)).encode()),
        *(extra or []),
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def run(project: str | Path | None, host: str, port: int) -> NoReturn:
    """Serve until interrupted; then ``ToonMemoryServer.stop`` (closes the memory, exits)."""
    from toon_memory.adapters.server.app import STOP_WAIT, ToonMemoryServer

    token, generated = resolve_token(host)
    server = ToonMemoryServer(project)
    server.own_process()
    app = Guard(server.streamable_http_app(host=host), token, allowed_hosts(host))
    shown = f"[{host}]" if ":" in host else host
    print(f"toon-memory MCP on http://{shown}:{port}/mcp", file=sys.stderr, flush=True)
    if generated:
        print(
            f"bearer token (set TOON_MEMORY_TOKEN to choose one): {token}",
            file=sys.stderr,
            flush=True,
        )
    with contextlib.suppress(KeyboardInterrupt):
        serve(app, host, port)
    server.stop(wait=STOP_WAIT / 4)  # uvicorn already gave running calls STOP_WAIT


def serve(app: Any, host: str, port: int) -> None:
    """Run ``app`` under uvicorn until interrupted (running calls get ``STOP_WAIT`` s)."""
    import math

    import anyio
    import uvicorn

    from toon_memory.adapters.server.app import STOP_WAIT

    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_config=None,
        access_log=False,
        log_level="warning",
        lifespan="on",
        timeout_graceful_shutdown=math.ceil(STOP_WAIT),
    )
    anyio.run(uvicorn.Server(config).serve)
