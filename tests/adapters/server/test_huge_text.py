"""Huge text (1-5 MB) in every tool's parameters, over real stdio (issue 22, item 12).

Every tool that takes free text bounds it (``limits.queryBytes`` for a query,
a context, an intent, a note...; the other ``limits`` for content, keys, files)
before any work: a 1-5 MB value is refused with a clear error naming the
parameter, quickly, and while the call is in flight the server keeps
answering pings. Tools without a text parameter get the huge text in a number
or flag parameter, or as an unknown parameter: also a quick, clear refusal.
No refusal changes a memory file.
"""

from __future__ import annotations

import subprocess
import time
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.client import Client
from tests.adapters.server.helpers import make_project, snapshot, stdio_params, text_of

from toon_memory.adapters.server.specs import Param, ToolSpec
from toon_memory.adapters.server.tools import TOOLS

pytestmark = pytest.mark.filterwarnings("ignore:ping is removed")
MB = 1024 * 1024
#: Seconds a refusal of a huge value may take (generous: a busy CI machine).
ANSWER_WAIT = 20.0
#: Seconds a ping may wait while a huge call is in flight.
PING_WAIT = 5.0


def _huge(size: int, param: Param | None) -> Any:
    """Varied words, paths and symbols (nothing a cache could answer at once)."""
    words, count = [], 0
    while count < size:
        word = f"verifyToken{count} src/auth/jwt{count % 97}.ts auth{count % 13}"
        words.append(word)
        count += len(word) + 1
    text = " ".join(words)[:size]
    return [text] if param is not None and param.many else text


def _text_params(spec: ToolSpec) -> list[Param | None]:
    """The parameters a huge string goes into: free text first, else any, else unknown."""
    free = [p for p in spec.params if p.kind == "string" and not p.enum]
    return list(free or spec.params[:1]) or [None]


def _cases() -> list[tuple[ToolSpec, Param | None]]:
    return [(spec, param) for spec in TOOLS for param in _text_params(spec)]


def _base_arguments(spec: ToolSpec) -> dict[str, Any]:
    """Valid values for the required parameters (the huge one replaces one of them)."""
    samples = {"key": "use-jwt", "keys": "use-jwt", "from_key": "use-jwt", "to_key": "use-jwt",
               "name": "api_token", "field": "current_task"}  # fmt: skip
    actions = {"memory_forget": "supersede", "memory_tag": "add", "memory_state": "set",
               "memory_secret": "store"}  # fmt: skip
    if spec.name in actions:
        samples["action"] = actions[spec.name]
    out: dict[str, Any] = {}
    for param in spec.params:
        if param.name in spec.required or param.name in samples:
            out[param.name] = samples.get(param.name) or (param.enum or ("x",))[0]
    return out


async def _call_with_pings(client: Client, spec: ToolSpec, arguments: dict[str, Any]) -> Any:
    """The tool's answer; pings sent meanwhile must each come back within ``PING_WAIT``."""
    answer: list[Any] = []

    async def call() -> None:
        answer.append(await client.call_tool(spec.name, arguments))

    async with anyio.create_task_group() as group:
        group.start_soon(call)
        while not answer:
            with anyio.fail_after(PING_WAIT):
                await client.send_ping()
            await anyio.sleep(0.2)
    return answer[0]


async def _play(project: Path, home: Path, size: int) -> list[str]:
    problems: list[str] = []
    store = project / ".toon-memory"
    async with Client(stdio_params(project, home), mode="legacy") as client:
        seeded = await client.call_tool(
            "memory_remember", {"category": "decision", "key": "use-jwt",
                                "content": "JWT auth in src/auth/jwt.ts"})  # fmt: skip
        assert not seeded.is_error, text_of(seeded)
        for spec, param in _cases():
            arguments = _base_arguments(spec)
            arguments[param.name if param else "huge_unknown"] = _huge(size, param)
            before = snapshot(store)
            started = time.monotonic()
            name = param.name if param else "huge_unknown"
            try:
                with anyio.fail_after(ANSWER_WAIT):
                    result = await _call_with_pings(client, spec, arguments)
            except TimeoutError:
                return [*problems, f"{spec.name}.{name}: no answer or no ping within the wait"]
            took = time.monotonic() - started
            text = text_of(result)
            if not result.is_error:
                problems.append(f"{spec.name}.{name}: accepted {size} bytes: {text[:80]!r}")
            elif name not in text or len(text) > 600:
                problems.append(f"{spec.name}.{name}: unclear error {text[:120]!r}")
            if snapshot(store) != before:
                problems.append(f"{spec.name}.{name}: a refusal changed the memory")
            if took > ANSWER_WAIT / 2:
                problems.append(f"{spec.name}.{name}: took {took:.1f} s")
    return problems


def _code(project: Path) -> None:
    """A git repository with a few tracked files that import one another."""
    (project / ".git").rmdir()
    (project / "src" / "auth").mkdir(parents=True)
    (project / "src" / "auth" / "jwt.ts").write_text("export function verifyToken() {}\n")
    for n in range(20):
        (project / "src" / f"use{n}.ts").write_text(
            "import { verifyToken } from './auth/jwt';\nverifyToken();\n"
        )
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    subprocess.run(["git", "add", "-A"], cwd=project, check=True)


@pytest.mark.parametrize("size", [1 * MB, 5 * MB])
def test_every_text_parameter_refuses_huge_values_quickly(tmp_path: Path, size: int) -> None:
    project, home = make_project(tmp_path)
    _code(project)

    async def play() -> list[str]:
        return await _play(project, home, size)

    problems = anyio.run(play)
    assert problems == [], "\n".join(problems)
