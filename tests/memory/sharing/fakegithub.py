"""A small GitHub Gist API on 127.0.0.1: a real ``http.server`` in a thread.

Implements ``POST /gists``, ``PATCH /gists/<id>`` and ``GET /gists/<id>`` (plus the raw
file of a truncated one) with GitHub's error answers: 401 for a missing or unknown token
(its body echoes the Authorization header, to prove we never show it), 404 for an unknown
gist or someone else's, 403 without the gist scope, 403 with ``X-RateLimit-Remaining: 0``
when the rate limit is used up. Every request is recorded.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from toon_memory.model.entry import Entry
from toon_memory.store.codec import encode_document

GOOD_TOKEN = "ghp_fakeTOKEN1234567890abcdefGOOD"
NO_SCOPE_TOKEN = "ghp_fakeTOKEN_without_gist_scope0"
RESET = 1_900_000_000  # 2030-03-17 17:46:40 UTC
SEEDED_GIST = "5eed00000000000000000000000000ab"
SEEDED_TEXT = encode_document(
    [Entry(id="5eed0001", category="pattern", key="shared-lint", content="Lint with ruff in CI",
           tags=["lint"], date="2026-07-01", created="2026-07-01T00:00:00Z",
           updated="2026-07-01T00:00:00Z")], [],
)  # fmt: skip


@dataclass
class Seen:
    method: str
    path: str
    authorization: str
    body: Any


@dataclass
class FakeGitHub:
    """State of the fake API: gists by id (owner, public, files) and the requests seen."""

    gists: dict[str, dict[str, Any]] = field(default_factory=dict)
    seen: list[Seen] = field(default_factory=list)
    rate_limited: bool = False
    truncate: bool = False
    server: ThreadingHTTPServer | None = None

    @property
    def url(self) -> str:
        assert self.server is not None
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def start(self) -> FakeGitHub:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:  # quiet
                return

            def do_GET(self) -> None:
                fake.handle(self, "GET")

            def do_POST(self) -> None:
                fake.handle(self, "POST")

            def do_PATCH(self) -> None:
                fake.handle(self, "PATCH")

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def environment(self) -> dict[str, str]:
        """What a toon-memory process needs to use this API with a good token."""
        return {"TOON_MEMORY_GITHUB_API": self.url, "GITHUB_TOKEN": GOOD_TOKEN}

    def seed_public_gist(self, gist_id: str = SEEDED_GIST) -> str:
        """A public gist someone else exported (one entry); returns its id."""
        self.gists[gist_id] = {"owner": "someone", "public": True, "description": "toon-memory",
                               "files": {"toon-memory.toon": {"content": SEEDED_TEXT}}}  # fmt: skip
        return gist_id

    def stop(self) -> None:
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()

    # -- the API -------------------------------------------------------------
    def handle(self, request: BaseHTTPRequestHandler, method: str) -> None:
        size = int(request.headers.get("Content-Length") or 0)
        raw = request.rfile.read(size) if size else b""
        body = json.loads(raw) if raw else None
        auth = request.headers.get("Authorization") or ""
        self.seen.append(Seen(method, request.path, auth, body))
        status, payload, headers = self.answer(method, request.path, auth, body)
        data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
        request.send_response(status)
        for name, value in {"Content-Type": "application/json", **headers}.items():
            request.send_header(name, value)
        request.send_header("Content-Length", str(len(data)))
        request.end_headers()
        request.wfile.write(data)

    def answer(
        self, method: str, path: str, auth: str, body: Any
    ) -> tuple[int, Any, dict[str, str]]:
        if self.rate_limited:
            return 403, {"message": "API rate limit exceeded"}, {
                "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": str(RESET)}  # fmt: skip
        token = auth.removeprefix("Bearer ").strip()
        if path.startswith("/raw/"):
            gist = self.gists.get(path.removeprefix("/raw/"))
            return (
                (200, gist["files"]["toon-memory.toon"]["content"].encode(), {})
                if gist
                else (404, {}, {})
            )
        if auth and token not in (GOOD_TOKEN, NO_SCOPE_TOKEN):
            return 401, {"message": f"Bad credentials (you sent {auth})"}, {}
        if method == "GET":
            return self.get(path.removeprefix("/gists/"), token)
        if not token:
            return 401, {"message": "Requires authentication"}, {}
        if token == NO_SCOPE_TOKEN:
            return 403, {"message": "Resource not accessible by personal access token"}, {}
        if method == "POST" and path == "/gists":
            gist_id = f"{len(self.gists) + 1:032x}"
            self.gists[gist_id] = {"owner": token, "public": body["public"],
                                   "description": body["description"], "files": body["files"]}  # fmt: skip
            return 201, self.view(gist_id), {}
        gist_id = path.removeprefix("/gists/")
        gist = self.gists.get(gist_id)
        if method == "PATCH" and gist is not None and gist["owner"] == token:
            gist["files"].update(body["files"])
            gist["description"] = body["description"]
            return 200, self.view(gist_id), {}
        return 404, {"message": "Not Found"}, {}

    def get(self, gist_id: str, token: str) -> tuple[int, Any, dict[str, str]]:
        gist = self.gists.get(gist_id)
        if gist is None or (not gist["public"] and gist["owner"] != token):
            return 404, {"message": "Not Found"}, {}
        return 200, self.view(gist_id), {}

    def view(self, gist_id: str) -> dict[str, Any]:
        gist = self.gists[gist_id]
        files = {}
        for name, item in gist["files"].items():
            content = item["content"]
            shown = {"filename": name, "raw_url": f"{self.url}/raw/{gist_id}", "content": content,
                     "truncated": False}  # fmt: skip
            if self.truncate:
                shown.update(content=content[:40], truncated=True)
            files[name] = shown
        return {"id": gist_id, "html_url": f"https://gist.example/{gist_id}", "files": files,
                "public": gist["public"], "description": gist["description"]}  # fmt: skip
