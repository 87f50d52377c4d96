"""A memory kept in a GitHub Gist: create, update and fetch through the REST API.

Invariant: the only network I/O of the package, and only when a Gist call is
asked for: ``httpx`` is imported here, lazily, never on a start-up path. The
token goes only into the ``Authorization`` header of requests to the API
base URL (never to another host, never into a URL); every message this
module produces passes through ``scrub`` so the token never appears in
output, logs or errors. A plain ``http://`` base URL is refused unless it
is the loopback host. Every failure is a ``SyncError`` saying what to do.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from toon_memory.errors import InputError, SyncError, quote

if TYPE_CHECKING:
    import httpx

DEFAULT_API = "https://api.github.com"
API_ENV = "TOON_MEMORY_GITHUB_API"
GIST_FILE = "toon-memory.toon"
TIMEOUT = 20.0
GH_TIMEOUT = 10.0
_LOOPBACK = {"127.0.0.1", "localhost", "::1"}
_GIST_ID = re.compile(r"^[0-9A-Za-z]{1,100}$")
TOKEN_HELP = "set GITHUB_TOKEN to a token with the 'gist' scope, or sign in with `gh auth login`"


@dataclass(frozen=True)
class GistInfo:
    """A gist as the API described it."""

    id: str
    url: str


def find_token() -> str:
    """``GITHUB_TOKEN``, else what ``gh auth token`` prints (bounded), else ''."""
    token = os.environ.get("GITHUB_TOKEN", "").strip()
    if token:
        return token
    import subprocess

    try:
        done = subprocess.run(
            ["gh", "auth", "token"], capture_output=True, text=True, timeout=GH_TIMEOUT,
            stdin=subprocess.DEVNULL, check=False,
        )  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        return ""
    return done.stdout.strip() if done.returncode == 0 else ""


def check_base_url(url: str, where: str) -> str:
    """An API base URL without a trailing slash; https, or http on the loopback host only."""
    text = str(url or "").strip().rstrip("/")
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise SyncError(
            f"{where}: expected an http(s) URL such as {DEFAULT_API}; got {quote(text)}"
        )
    if parts.scheme == "http" and parts.hostname not in _LOOPBACK:
        raise SyncError(f"{where}: a token is never sent over plain http; use https://")
    return text


def check_gist_id(value: str) -> str:
    """A gist id, or the id at the end of a gist URL; ``InputError`` naming ``gist_id``."""
    text = str(value or "").strip().rstrip("/")
    if "/" in text:
        text = text.rsplit("/", 1)[-1].removesuffix(".git")
    if not _GIST_ID.match(text):
        raise InputError("gist_id", f"expected a gist id or URL; got {quote(value)}")
    return text


def scrub(text: str, token: str) -> str:
    """``text`` with every occurrence of the token replaced."""
    return text.replace(token, "***") if token else text


class GistClient:
    """Calls to ``/gists`` of one API base URL, with an optional token."""

    def __init__(self, base_url: str, token: str = "") -> None:
        self.base_url = base_url
        self.token = token

    def create(self, text: str, description: str, public: bool) -> GistInfo:
        body = {"description": description, "public": public,
                "files": {GIST_FILE: {"content": text}}}  # fmt: skip
        return _info(self._call("POST", "/gists", body, what="create a gist"))

    def update(self, gist_id: str, text: str, description: str, missing: str = "") -> GistInfo:
        """Replace the gist's memory file; ``missing`` is added to a 404's message."""
        body = {"description": description, "files": {GIST_FILE: {"content": text}}}
        what = f"update gist {gist_id}"
        return _info(self._call("PATCH", f"/gists/{gist_id}", body, what=what, missing=missing))

    def fetch(self, gist_id: str) -> str:
        """The memory document a gist holds (``toon-memory.toon``, else its one .toon file)."""
        data = self._call("GET", f"/gists/{gist_id}", None, what=f"read gist {gist_id}")
        files = data.get("files") if isinstance(data, dict) else None
        if not isinstance(files, dict):
            raise SyncError(f"gist {gist_id}: the API answer lists no files")
        chosen = files.get(GIST_FILE) or _only_toon(files)
        if not isinstance(chosen, dict):
            raise SyncError(f"gist {gist_id} holds no {GIST_FILE}: it was not exported by "
                            "toon-memory (export with `toon-memory gist export`)")  # fmt: skip
        if chosen.get("truncated") and chosen.get("raw_url"):
            return self._raw(str(chosen["raw_url"]), gist_id)
        return str(chosen.get("content") or "")

    # -- transport ---------------------------------------------------------
    def _headers(self, with_token: bool) -> dict[str, str]:
        headers = {"Accept": "application/vnd.github+json", "User-Agent": "toon-memory",
                   "X-GitHub-Api-Version": "2022-11-28"}  # fmt: skip
        if with_token and self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        return headers

    def _call(
        self, method: str, path: str, body: dict[str, Any] | None, what: str, missing: str = ""
    ) -> Any:
        import httpx

        try:
            with httpx.Client(timeout=TIMEOUT, follow_redirects=False) as client:
                answer = client.request(method, self.base_url + path, json=body,
                                        headers=self._headers(True))  # fmt: skip
        except httpx.HTTPError as exc:
            raise SyncError(self._clean(
                f"could not {what}: {self.base_url} did not answer ({type(exc).__name__}: {exc}); "
                f"check the network, or {API_ENV} if you use GitHub Enterprise")) from None  # fmt: skip
        if answer.status_code >= 400:
            hint = f"; {missing}" if missing and answer.status_code == 404 else ""
            raise SyncError(self._clean(self._explain(answer, what, path) + hint))
        try:
            return answer.json()
        except ValueError:
            raise SyncError(f"could not {what}: {self.base_url} answered {answer.status_code} "
                            "with something that is not JSON") from None  # fmt: skip

    def _raw(self, url: str, gist_id: str) -> str:
        import httpx

        same_host = urlsplit(url).hostname == urlsplit(self.base_url).hostname
        try:
            with httpx.Client(timeout=TIMEOUT, follow_redirects=True) as client:
                answer = client.get(url, headers=self._headers(same_host))
        except httpx.HTTPError as exc:
            raise SyncError(self._clean(f"could not read gist {gist_id}: {exc}")) from None
        if answer.status_code >= 400:
            raise SyncError(self._clean(f"could not read gist {gist_id}: {answer.status_code}"))
        return answer.text

    def _clean(self, text: str) -> str:
        return scrub(text, self.token)

    def _explain(self, answer: httpx.Response, what: str, path: str) -> str:
        """A clear message for an error answer: what happened and what to do."""
        code = answer.status_code
        said = _api_message(answer)
        head = f"could not {what}: GitHub answered {code}" + (f" ({said})" if said else "")
        remaining = answer.headers.get("x-ratelimit-remaining")
        if code == 429 or (code == 403 and remaining == "0"):
            reset = _reset_time(answer.headers.get("x-ratelimit-reset", ""))
            extra = "" if self.token else "; a token raises the limit: " + TOKEN_HELP
            return f"{head}: the API rate limit is used up; try again after {reset}{extra}"
        if code == 401:
            return f"{head}: the token was refused; {TOKEN_HELP}"
        if code == 403:
            return f"{head}: not allowed; the token needs the 'gist' scope ({TOKEN_HELP})"
        if code == 404 and path.startswith("/gists/"):
            owner = " or is not yours" if what.startswith("update") else ""
            return f"{head}: the gist does not exist{owner} (a secret gist needs its owner's token)"
        if code == 404:
            return f"{head}: {self.base_url} has no gist API; check {API_ENV}"
        return head


def _info(data: Any) -> GistInfo:
    if not isinstance(data, dict) or not data.get("id"):
        raise SyncError("GitHub's answer names no gist id")
    return GistInfo(str(data["id"]), str(data.get("html_url") or ""))


def _only_toon(files: dict[str, Any]) -> Any:
    toon = [value for name, value in files.items() if str(name).endswith(".toon")]
    return toon[0] if len(toon) == 1 else None


def _api_message(answer: httpx.Response) -> str:
    try:
        data = answer.json()
    except ValueError:
        return ""
    message = data.get("message") if isinstance(data, dict) else None
    return str(message)[:200] if message else ""


def _reset_time(value: str) -> str:
    try:
        moment = datetime.fromtimestamp(int(value), tz=timezone.utc)
    except (TypeError, ValueError, OverflowError, OSError):
        return "the limit resets (about an hour)"
    return f"{moment:%H:%M} UTC"
