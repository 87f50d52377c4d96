"""The MCP server: the official SDK's ``MCPServer`` with toon-memory's tools, resources, prompt.

Invariant: this package is the only place that imports ``mcp``; this module
does no work at construction beyond registering names (the memory opens on
the first call, the tool list is built on the first ``tools/list``). Every
``Memory`` call runs in a worker thread, one at a time (a thread lock, which
``close`` also takes, so nothing compacts under a running call).
``ToonMemoryError`` becomes a tool error (``isError``) naming the parameter
here and nowhere else; any other exception a short error too, never a
dropped request. Every error text is short and encodable; over stdio
(``lines``) and HTTP (``http``) a message the SDK's parser would drop (lone
surrogates, nesting past its limit) is repaired first (``wire``), its
refused arguments answered as a tool error naming them. ``close()`` ends the
server's session and compacts the memory if it was opened. A stop (SIGTERM)
waits at most ``STOP_WAIT`` seconds for a running call (end of stdin: at most
``END_WAIT`` for every call read before it), then
leaves it unanswered (a write it made is kept but not acknowledged), stops
the processes it started and exits without compacting: the next open replays
the journal. However it stops, the client's stdio pipes are given back as they
were (``lines.Pipes.release``) before the process exits. The server's session
heartbeat (``heartbeat``) is written in the worker thread, never on the
start-up path: when the memory is first opened (the first tool call, resource
or prompt after the handshake) and after each write tool call. A server that owns
its process, idle for ``system.garbage.IDLE`` seconds, catches its memory up with its
files (``_settle``: the accesses its recalls left beside the index are folded in) unless
a call holds it.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar, cast

import anyio
import anyio.to_thread
from mcp.server.apps import APP_MIME_TYPE, Apps
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.resources import FunctionResource
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS, CallToolResult, TextContent, ToolAnnotations
from mcp_types import Tool as MCPTool

from toon_memory.adapters.server import views
from toon_memory.adapters.server.specs import ToolSpec
from toon_memory.adapters.server.tools import BY_NAME, TOOLS
from toon_memory.adapters.server.tools.viewer import UI_RESOURCES, VIEWER_URI
from toon_memory.errors import InputError, StoreError, ToonMemoryError
from toon_memory.system.garbage import Collector

if TYPE_CHECKING:
    from mcp.server.context import CallNext, HandlerResult, ServerRequestContext

    from toon_memory.adapters.server.heartbeat import ServerSession
    from toon_memory.memory.api import Memory
    from toon_memory.render.results import Rendered

T = TypeVar("T")
log = logging.getLogger("toon_memory.adapters.server")
#: Seconds a stop (SIGTERM, end of stdin) waits for a running call before leaving it.
STOP_WAIT = 1.0
#: At end of input, how long the calls the client sent before leaving get to answer
#: (they were asked for: a busy machine may need more than ``STOP_WAIT`` to start one).
END_WAIT = 10.0
#: Longest tool error text.
MAX_ERROR = 500

INSTRUCTIONS = (
    "Persistent project memory. Start a task with memory_smart_recall; save decisions, "
    "patterns, bugs and warnings with memory_remember."
)
RESOURCES = (
    ("toon://memory/entries", "entries", "Full memory dump", views.entries_text),
    ("toon://memory/current", "current", "Pinned and recently changed entries", views.current_text),
    ("toon://memory/stats", "stats", "Counts by category, TTL, quality", views.stats_text),
    (
        "toon://memory/summaries",
        "summaries",
        "System primer: top entries, categories, patterns",
        views.primer_text,
    ),
)


def error_result(spec: ToolSpec, exc: Exception) -> CallToolResult:
    """A tool error whose text names the published parameter (short and encodable)."""
    from toon_memory.adapters.server.args import name_of

    if isinstance(exc, InputError):
        name = spec.fields.get(exc.field, exc.field)
        text = f"Invalid argument '{name}': {exc.problem}"
    elif isinstance(exc, ToonMemoryError):
        text = f"Error: {exc}"
    else:
        text = f"Error: {type(exc).__name__}: {exc}"
    return CallToolResult(
        content=[TextContent(type="text", text=name_of(text, MAX_ERROR))], is_error=True
    )


def _refused_on_wire(context: Context[Any, Any] | None) -> dict[str, Any]:
    """The arguments ``wire.repair`` refused for this call (from ``params._meta``)."""
    from toon_memory.adapters.server.wire import INVALID

    try:
        meta = context.request_context.meta if context is not None else None
    except ValueError:  # no request context (a direct call)
        return {}
    found = meta.get(INVALID) if isinstance(meta, dict) else None
    return found if isinstance(found, dict) else {}


def _tool(spec: ToolSpec) -> MCPTool:
    hints = spec.annotations()
    ui = UI_RESOURCES.get(spec.name)
    return MCPTool(
        _meta={"ui": {"resourceUri": ui}} if ui else None,
        name=spec.name,
        description=spec.doc,
        input_schema=spec.input_schema(),
        output_schema=spec.output,
        annotations=ToolAnnotations(
            read_only_hint=hints["readOnlyHint"],
            destructive_hint=hints["destructiveHint"],
            idempotent_hint=hints["idempotentHint"],
            open_world_hint=hints["openWorldHint"],
        ),
    )


class ToonMemoryServer(MCPServer[Any]):
    """``MCPServer`` whose tools come from ``specs``/``handlers`` instead of signatures."""

    def __init__(self, project: str | Path | None = None) -> None:
        from importlib.metadata import version

        super().__init__(
            name="toon-memory",
            version=version("toon-memory"),
            instructions=INSTRUCTIONS,
            log_level="WARNING",
            extensions=[self._viewer_app()],
        )
        self._project = project
        self._memory: Memory | None = None
        self._serial = threading.Lock()
        #: Set when this server owns its process (``own_process``).
        self._garbage: Collector | None = None
        self._stopping = False
        self._tools: list[MCPTool] | None = None
        self._session: ServerSession | None = None
        self._client_name = ""
        self._register_views()
        #: Gives the client its stdio pipes back as they were (``lines.Pipes.release``).
        self._release_pipes: Callable[[], None] = lambda: None
        self._requests = 0  # requests being handled (any method)
        self._calls_done = 0  # tool calls answered
        self.middleware.append(self._each_request)

    # -- the memory ------------------------------------------------------------------
    def memory(self) -> Memory:
        """The memory, opened on first use (in the worker thread)."""
        if self._memory is None:
            from toon_memory.memory.api import Memory

            self._memory = Memory(self._project)
            for note in self._memory.notices():
                log.warning("note: %s", note)
            self.session().start(self._memory)
        return self._memory

    async def run_memory(self, func: Callable[[Memory], T]) -> T:
        """Run ``func(memory)`` in a worker thread, one call at a time."""
        return await self.in_worker(self._serial, lambda: func(self.memory()))

    async def in_worker(self, lock: threading.Lock, work: Callable[[], T]) -> T:
        """Run ``work()`` in a worker thread holding ``lock``.

        A cancelled request is not waited for; if it had not started, it never does.
        """
        abandoned = threading.Event()

        def call() -> T:
            with lock:
                if abandoned.is_set() or self._stopping:
                    raise StoreError("the server is stopping")
                with self._garbage.call() if self._garbage else contextlib.nullcontext():
                    return work()

        try:
            return await anyio.to_thread.run_sync(call, abandon_on_cancel=True)
        except anyio.get_cancelled_exc_class():
            abandoned.set()
            raise

    def own_process(self) -> None:
        """This server is its process's one long-lived job (``toon-memory mcp``, ``serve``):
        what each call leaves alive is frozen and cycles freed when idle
        (``system.garbage``). Not for a server run inside another program's process
        (freezing is process-wide)."""
        if self._garbage is None:
            self._garbage = Collector(idle_work=self._settle)

    def _settle(self) -> None:
        """Idle upkeep: the memory caught up with its files (a warm index takes the accesses
        its recalls left beside it: ``store.index_lag``), unless a call holds it."""
        if self._memory is not None and self._serial.acquire(blocking=False):
            try:
                if not self._stopping:
                    self._memory.refresh()
            finally:
                self._serial.release()

    def close(self, wait: float | None = None) -> bool:
        """End the session and compact the memory (no-op if never opened).

        Waits at most ``wait`` seconds (None: as long as it takes) for a running
        call; False when it is still running: then nothing is done.
        """
        if not self._serial.acquire(timeout=-1 if wait is None else wait):
            return False
        try:
            if self._memory is not None:
                self.session().end(self._memory)
                self._memory.close()
        finally:
            self._serial.release()
        return True

    def stop(self, wait: float = STOP_WAIT, code: int = 0) -> NoReturn:
        """Close (waiting at most ``wait`` s for a running call) and exit the process at once.

        A call still running is left: the processes it started are stopped, and
        the journal keeps every write that was acknowledged.
        """
        self._stopping = True
        if not self.close(wait):
            from toon_memory.adapters.server.shutdown import stop_children

            stopped = stop_children()
            log.warning(
                "stopped mid-call (not compacted; %d child process(es) stopped)", len(stopped)
            )
        self._release_pipes()
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(OSError, ValueError, AttributeError):
                stream.flush()
        os._exit(code)

    # -- the server's own session ----------------------------------------------------
    def session(self) -> ServerSession:
        if self._session is None:
            from toon_memory.adapters.server.heartbeat import ServerSession

            self._session = ServerSession(client=self._client_name)
        return self._session

    async def _each_request(
        self, ctx: ServerRequestContext[Any, Any], call_next: CallNext
    ) -> HandlerResult:
        """Middleware: note the MCP client's name (the session's agent) once it is known;
        count the requests being handled (``drain``)."""
        if not self._client_name:
            info = getattr(getattr(ctx.session, "client_params", None), "client_info", None)
            self._client_name = str(getattr(info, "name", "") or "")
            if self._session is not None:
                self._session.client = self._client_name
        self._requests += 1
        try:
            return await call_next(ctx)
        finally:
            self._requests -= 1
            self._calls_done += ctx.method == "tools/call"

    async def drain(
        self, calls_read: Callable[[], int] = lambda: 0, wait: float = STOP_WAIT
    ) -> None:
        """Wait until no request is being handled and every tool call read (``calls_read``)
        has answered, at most ``wait`` seconds (a loaded machine may not have started a
        call read just before the end of input yet)."""
        with anyio.move_on_after(wait):
            await anyio.sleep(0.01)  # let a request read just before this start
            while self._requests or self._calls_done < calls_read():
                await anyio.sleep(0.01)

    def stop_now(self, *_: Any) -> NoReturn:
        """Signal handler: ``stop`` (compact unless a call runs past ``STOP_WAIT``), exit 0.

        (Unwinding instead would wait forever on the thread blocked reading stdin.)
        """
        self.stop()

    async def run_stdio_async(self) -> None:
        """Serve over stdio until stdin ends; running calls get ``STOP_WAIT`` s to answer."""
        from mcp.server.stdio import stdio_server

        from toon_memory.adapters.server.lines import Pipes

        self.own_process()
        pipes = Pipes(before_end=lambda: self.drain(lambda: pipes.lines.calls, END_WAIT))
        lines, self._release_pipes = pipes.lines, pipes.release
        lowlevel = self._lowlevel_server
        try:
            async with anyio.create_task_group() as group:

                async def serve() -> None:
                    stdin, stdout = cast(Any, lines), cast(Any, pipes.out)
                    async with stdio_server(stdin=stdin, stdout=stdout) as (read, write):
                        await lowlevel.run(read, write, lowlevel.create_initialization_options())
                    group.cancel_scope.cancel()

                group.start_soon(serve)
                await lines.ended.wait()
                await anyio.sleep(STOP_WAIT)
                group.cancel_scope.cancel()
        finally:
            pipes.release()

    # -- tools -----------------------------------------------------------------------
    async def list_tools(self) -> list[MCPTool]:
        if self._tools is None:
            self._tools = [_tool(spec) for spec in TOOLS]
        return self._tools

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Context[Any, Any] | None = None
    ) -> CallToolResult:
        from toon_memory.adapters.server.args import name_of, normalise, refused
        from toon_memory.adapters.server.handlers import run_tool

        spec = BY_NAME.get(name)
        if spec is None:
            raise MCPError(code=INVALID_PARAMS, message=f"Unknown tool: {name_of(name)}")
        try:
            bad = refused(spec, _refused_on_wire(context))
            if bad is not None:
                raise bad
            args = normalise(spec, arguments)

            def call(memory: Memory) -> Rendered:
                out = run_tool(memory, spec, args)
                self.session().after_call(memory, spec, args)
                return out

            out = await self.run_memory(call)
        except ToonMemoryError as exc:
            return error_result(spec, exc)
        except Exception as exc:  # a bug or an OS error: still a short, encodable answer
            log.exception("%s failed", spec.name)
            return error_result(spec, exc)
        return CallToolResult(
            content=[TextContent(type="text", text=out.text)],
            structured_content=out.data if spec.output is not None else None,
        )

    # -- resources and prompt --------------------------------------------------------
    def _register_views(self) -> None:
        for uri, name, about, render in RESOURCES:
            self.resource(uri, name=name, description=about, mime_type="text/plain")(
                self._reader(render)
            )

        async def summarize_project_context(intent: str = "") -> str:
            """Summarize the project from its memory; intent narrows the focus."""
            return await self.run_memory(lambda memory: views.prompt_text(memory, intent))

        self.prompt(name="summarize_project_context")(summarize_project_context)

    def _viewer_app(self) -> Apps:
        """MCP Apps: the viewer page as a ``ui://`` resource, rebuilt from the memory on each read."""

        def page(memory: Memory) -> str:
            from toon_memory.adapters.viewer.page import standalone_page
            from toon_memory.adapters.viewer.payload import graph_payload

            return standalone_page(graph_payload(memory), app=True)

        apps = Apps()
        apps.add_resource(
            FunctionResource(
                uri=VIEWER_URI,
                name="viewer",
                description="Memory graph viewer",
                mime_type=APP_MIME_TYPE,
                fn=self._reader(page),
            )
        )
        return apps

    def _reader(self, render: Callable[[Memory], str]) -> Callable[[], Any]:
        async def read() -> str:
            return await self.run_memory(render)

        return read
