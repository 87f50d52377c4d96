"""The client side of a team server: MCP tool calls over Streamable HTTP with a bearer token.

Invariant: imported only by a command given ``--server`` (the local path never
loads ``mcp.client`` or ``httpx2``); ``call_tools`` makes its calls in order in
one session and answers each call's text, structured data and error flag, the
tool errors included (the caller passes them through); ``count_tools`` lists the
tools (``status``). A server that cannot be
reached, refuses the token (401/403), has no MCP endpoint at the URL (404) or
breaks off is one ``RemoteError`` naming the URL (and, for a refused token, the
variable it came from); no message ever holds the token.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from toon_memory.errors import RemoteError

T = TypeVar("T")
#: Seconds to connect; seconds to wait for a reply (a hook's agent waits about 10 s in all).
CONNECT_WAIT = 5.0
REPLY_WAIT = 60.0


@dataclass(frozen=True)
class ToolAnswer:
    """One tool call's answer: its text, its structured content (None: none), its error flag."""

    text: str
    data: Any
    error: bool


def call_tools(url: str, token: str, token_env: str,
               calls: Sequence[tuple[str, dict[str, Any]]]) -> list[ToolAnswer]:  # fmt: skip
    """Each ``(tool, arguments)`` of ``calls`` on the server at ``url``, in one session."""

    async def work(client: Any) -> list[ToolAnswer]:
        answers = []
        for name, arguments in calls:
            result = await client.call_tool(name, arguments)
            text = "\n".join(getattr(part, "text", "") for part in result.content)
            answers.append(ToolAnswer(text, result.structured_content, result.is_error))
        return answers

    return _run(url, token, token_env, work)


def count_tools(url: str, token: str, token_env: str) -> int:
    """How many tools the server at ``url`` lists (``status`` probing a remote entry)."""

    async def work(client: Any) -> int:
        return len((await client.list_tools()).tools)

    return _run(url, token, token_env, work)


def _run(url: str, token: str, token_env: str, work: Callable[[Any], Awaitable[T]]) -> T:
    """``work(client)`` in one MCP session with the server; failures as one ``RemoteError``."""
    import anyio

    statuses: list[int] = []
    try:
        return anyio.run(_session, url, token, work, statuses)
    except RemoteError:
        raise
    except Exception as exc:  # the SDK's errors come wrapped in task groups
        raise _explained(url, token_env, statuses, _leaf(exc), token) from None


async def _session(url: str, token: str, work: Callable[[Any], Awaitable[T]],
                   statuses: list[int]) -> T:  # fmt: skip
    import httpx2
    from mcp.client import Client
    from mcp.client.streamable_http import streamable_http_client

    async def record(response: httpx2.Response) -> None:
        statuses.append(response.status_code)

    timeout = httpx2.Timeout(REPLY_WAIT, connect=CONNECT_WAIT)
    headers = {"Authorization": f"Bearer {token}"}
    http = httpx2.AsyncClient(headers=headers, timeout=timeout,
                              event_hooks={"response": [record]})  # fmt: skip
    async with http, Client(streamable_http_client(url, http_client=http)) as client:
        return await work(client)


def _leaf(exc: BaseException) -> BaseException:
    """The first error inside nested exception groups (anyio's; no ``BaseExceptionGroup``
    name on Python 3.10)."""
    inner = getattr(exc, "exceptions", None)
    while isinstance(inner, tuple) and inner and isinstance(inner[0], BaseException):
        exc = inner[0]
        inner = getattr(exc, "exceptions", None)
    return exc


def _explained(url: str, token_env: str, statuses: list[int], exc: BaseException,
               token: str) -> RemoteError:  # fmt: skip
    """The one-line error for a failed session (what the server answered, else the cause)."""
    import httpx2

    refused = [s for s in statuses if s in (401, 403, 404)]
    if refused and refused[0] == 401:
        return RemoteError(f"the team server at {url} refused the token (401): set {token_env} "
                           "to the token the server was given")  # fmt: skip
    if refused and refused[0] == 403:
        return RemoteError(f"the team server at {url} refused the request (403): the token in "
                           f"{token_env} is not allowed there, or the Origin is not")  # fmt: skip
    if refused:
        return RemoteError(f"no MCP endpoint at {url} (404): check the URL (…/mcp or "
                           "…/mcp/<project>)")  # fmt: skip
    if isinstance(exc, httpx2.ConnectError | httpx2.ConnectTimeout):
        return RemoteError(f"cannot reach the team server at {url}: is it running, and is the "
                           "URL right?")  # fmt: skip
    if isinstance(exc, httpx2.TimeoutException):
        return RemoteError(f"the team server at {url} did not answer in time")
    problem = " ".join(str(exc).split()).replace(token, "***") or type(exc).__name__
    return RemoteError(f"the team server at {url} failed: {problem}")
