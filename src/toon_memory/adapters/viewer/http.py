"""The viewer's HTTP app (stdlib ``http.server``): the page, its assets, the data, live events.

Invariants:
- It listens on 127.0.0.1 only and answers GET on its own routes only
  (``/``, ``/assets/<known file>``, ``/api/graph``, ``/api/path``,
  ``/api/events``); anything else is 404, other methods 405.
- A request whose ``Host`` is not this server's loopback address, or whose
  ``Origin`` (when sent) is not this server's own, gets 403 before any
  route runs (DNS rebinding, cross-site reads). No CORS header is ever sent.
- Every ``Memory`` call runs under one lock; the data comes from its public
  API only (through ``payload``), and ``/api/path`` is ``Memory.graph_path``.
"""

from __future__ import annotations

import json
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, urlsplit

from toon_memory.adapters.viewer.page import ASSET_TYPES, asset, live_page
from toon_memory.adapters.viewer.payload import graph_payload, path_ids
from toon_memory.adapters.viewer.watch import Changes
from toon_memory.errors import InputError, NotFoundError

if TYPE_CHECKING:
    from toon_memory.memory.api import Memory

HOST = "127.0.0.1"
#: Seconds between SSE keep-alive comments (a closed tab is noticed on the next write).
KEEPALIVE = 15.0
PAGE_CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
SECURITY_HEADERS = {
    "Content-Security-Policy": PAGE_CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cache-Control": "no-store",
}


class ViewerApp:
    """The state the handlers share: the memory (behind a lock) and the change counter."""

    def __init__(self, memory: Memory) -> None:
        self.memory = memory
        self.lock = threading.Lock()
        self.changes = Changes()
        self.port = 0
        self._cached: tuple[int, bytes] | None = None

    def allowed_hosts(self) -> set[str]:
        return {f"{HOST}:{self.port}", f"localhost:{self.port}"}

    def allowed_origins(self) -> set[str]:
        return {f"http://{host}" for host in self.allowed_hosts()}

    def graph_json(self) -> bytes:
        """The payload as JSON, rebuilt once per change."""
        version = self.changes.version
        if self._cached is None or self._cached[0] != version:
            with self.lock:
                body = json.dumps(graph_payload(self.memory), ensure_ascii=False).encode()
            self._cached = (version, body)
        return self._cached[1]

    def path_json(self, from_key: str, to_key: str) -> bytes:
        with self.lock:
            ids = path_ids(self.memory, from_key, to_key)
        return json.dumps({"path": ids}).encode()


class ViewerServer(ThreadingHTTPServer):
    """A threading server bound to 127.0.0.1 that carries the ``ViewerApp``."""

    daemon_threads = True
    allow_reuse_address = False

    def __init__(self, app: ViewerApp, port: int = 0) -> None:
        self.app = app
        super().__init__((HOST, port), ViewerHandler)
        app.port = self.server_address[1]


class ViewerHandler(BaseHTTPRequestHandler):
    """One request: guard, then one route."""

    server: ViewerServer
    server_version = "toon-memory-viewer"
    sys_version = ""

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: the terminal shows the URL and nothing per request."""

    # -- responses ------------------------------------------------------------------
    def _send(self, status: HTTPStatus, body: bytes, content_type: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in SECURITY_HEADERS.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def _error(self, status: HTTPStatus, message: str) -> None:
        body = json.dumps({"error": message}).encode()
        self._send(status, body, "application/json; charset=utf-8")

    def _refuse(self) -> None:
        self._error(HTTPStatus.METHOD_NOT_ALLOWED, "only GET")

    do_POST = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = do_HEAD = _refuse

    # -- GET ------------------------------------------------------------------------
    def _guard(self) -> bool:
        app = self.server.app
        host = self.headers.get("Host", "")
        origin = self.headers.get("Origin")
        if host not in app.allowed_hosts() or (
            origin is not None and origin not in app.allowed_origins()
        ):
            self._error(HTTPStatus.FORBIDDEN, "foreign host or origin")
            return False
        return True

    def do_GET(self) -> None:
        if not self._guard():
            return
        url = urlsplit(self.path)
        route = url.path
        if route in ("/", "/index.html"):
            self._send(HTTPStatus.OK, live_page().encode(), "text/html; charset=utf-8")
        elif route.startswith("/assets/") and route[8:] in ASSET_TYPES:
            self._send(HTTPStatus.OK, asset(route[8:]), ASSET_TYPES[route[8:]])
        elif route == "/api/graph":
            self._send(HTTPStatus.OK, self.server.app.graph_json(), "application/json")
        elif route == "/api/path":
            self._path(parse_qs(url.query))
        elif route == "/api/events":
            self._events()
        else:
            self._error(HTTPStatus.NOT_FOUND, "not found")

    def _path(self, query: dict[str, list[str]]) -> None:
        ends = [query.get(name, [""])[0] for name in ("from", "to")]
        try:
            body = self.server.app.path_json(*ends)
        except NotFoundError as exc:
            self._error(HTTPStatus.NOT_FOUND, str(exc))
        except InputError as exc:
            self._error(HTTPStatus.BAD_REQUEST, str(exc))
        else:
            self._send(HTTPStatus.OK, body, "application/json")

    def _events(self) -> None:
        """Server-sent events: ``change`` whenever the memory files change, until closed."""
        changes = self.server.app.changes
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream")
        for name, value in SECURITY_HEADERS.items():
            self.send_header(name, value)
        self.end_headers()
        self.close_connection = True
        seen = changes.version
        try:
            self._write(f"retry: 1000\nevent: hello\ndata: {seen}\n\n")
            while not changes.closed:
                now = changes.wait_past(seen, KEEPALIVE)
                if changes.closed:
                    break
                self._write(f"event: change\ndata: {now}\n\n" if now > seen else ": keep-alive\n\n")
                seen = now
        except OSError:
            return  # the tab went away

    def _write(self, text: str) -> None:
        self.wfile.write(text.encode())
        self.wfile.flush()
