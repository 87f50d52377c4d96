"""Text written beside entries is scanned like remember: tags (memory_tag / ``tag``), a file
summary (memory_summary / ``summary``), the checkpoint note, a compress summary and the
session state (SESSION-STATE.json). A credential refuses the write with an error naming the
field (never the secret) and nothing is written; ``allow_secrets`` (CLI ``--allow-secrets``)
keeps it, as on remember. Through the API, the CLI (subprocesses) and the MCP client."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.client import Client
from tests.adapters.server.helpers import snapshot, text_of
from tests.conftest import run_cli
from tests.rules.secrets_scan.fixtures import SECRETS

from toon_memory import InputError, Memory
from toon_memory.adapters.server.app import ToonMemoryServer

KINDS = ("aws-key-id", "github")
Write = Callable[[Memory, str, bool], object]

#: path -> (field the error names, the write with a text and allow_secrets)
PATHS: dict[str, tuple[str, Write]] = {
    "tag": ("tags", lambda m, s, allow: m.tag("seed", "add", s, allow_secrets=allow)),
    "summary": ("text", lambda m, s, allow: m.summary("src/a.py", f"Holds {s}", allow)),
    "checkpoint": ("note", lambda m, s, allow: m.checkpoint(f"before {s}", allow)),
    "compress": ("summary", lambda m, s, allow: m.curation.compress("seed", f"Uses {s}", allow)),
    "state-set": ("value", lambda m, s, allow: m.session_state("set", "current_task", s,
                                                               allow_secrets=allow)),
    "state-add": ("value", lambda m, s, allow: m.session_state("add", "key_context", ["ok", s],
                                                               allow_secrets=allow)),
}  # fmt: skip


def _seeded(project: Path) -> Memory:
    memory = Memory(project)
    memory.remember("knowledge", "seed", "Something harmless about the build")
    return memory


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("path", sorted(PATHS))
def test_a_credential_is_refused_naming_the_field(project: Path, path: str, kind: str) -> None:
    field, write = PATHS[path]
    _text, secret, label = SECRETS[kind]
    memory = _seeded(project)
    before = snapshot(project)
    with pytest.raises(InputError) as caught:
        write(memory, secret, False)
    assert caught.value.field == field and label in str(caught.value)
    assert secret not in str(caught.value) and "allow_secrets" in str(caught.value)
    assert snapshot(project) == before  # no backup, no journal line, no state file
    write(memory, secret, True)  # the escape, as on remember
    assert snapshot(project) != before


def test_allow_secrets_must_be_a_boolean(project: Path) -> None:
    memory = _seeded(project)
    with pytest.raises(InputError) as caught:
        memory.tag("seed", "add", "ci", allow_secrets="yes")  # type: ignore[arg-type]
    assert caught.value.field == "allow_secrets"


def test_harmless_text_passes_every_path(project: Path) -> None:
    memory = _seeded(project)
    for _field, write in PATHS.values():
        write(memory, "commit 4f2a9c1e8b7d6a5f4e3d2c1b0a9f8e7d6c5b4a39", False)
    assert "commit" in " ".join(memory.get("seed").tags) + memory.get("seed").content


#: MCP tool -> (arguments holding the secret, the parameter the error names)
TOOLS: dict[str, tuple[dict[str, Any], str]] = {
    "memory_tag": ({"keys": "seed", "action": "add", "tags": "SECRET"}, "tags"),
    "memory_summary": ({"file": "src/a.py", "summary": "Holds SECRET"}, "summary"),
    "memory_checkpoint": ({"note": "before SECRET"}, "note"),
    "memory_compress": ({"key": "seed", "summary": "Uses SECRET"}, "summary"),
    "memory_state": ({"action": "set", "field": "current_task", "value": "SECRET"}, "value"),
}


def test_mcp_tools_refuse_then_keep_when_allowed(project: Path) -> None:
    _seeded(project)
    _text, secret, label = SECRETS["github"]

    async def run() -> list[tuple[str, Any, bool, Any]]:
        found = []
        async with Client(ToonMemoryServer(project)) as client:
            for name, (args, _param) in TOOLS.items():
                filled = {k: v.replace("SECRET", secret) for k, v in args.items()}
                before = snapshot(project)
                refused = await client.call_tool(name, filled)
                unchanged = snapshot(project) == before
                kept = await client.call_tool(name, {**filled, "allow_secrets": True})
                found.append((name, refused, unchanged, kept))
        return found

    for name, refused, unchanged, kept in anyio.run(run):
        param = TOOLS[name][1]
        message = text_of(refused)
        assert refused.is_error and f"'{param}'" in message and label in message, (name, message)
        assert secret not in message and unchanged, name
        assert not kept.is_error, (name, text_of(kept))


#: CLI command line (SECRET replaced) -> the field its message names
COMMANDS: list[tuple[list[str], str]] = [
    (["tag", "seed", "--tags", "SECRET"], "tags"),
    (["summary", "src/a.py", "--text", "Holds SECRET"], "text"),
    (["checkpoint", "--note", "before SECRET"], "note"),
    (["compress", "seed", "--summary", "Uses SECRET"], "summary"),
    (["state", "add", "key_context", "SECRET"], "value"),
]


@pytest.mark.parametrize(("line", "field"), COMMANDS)
def test_cli_refuses_then_keeps_with_allow_secrets(
    project: Path, line: list[str], field: str
) -> None:
    _seeded(project)
    _text, secret, label = SECRETS["aws-key-id"]
    args = [part.replace("SECRET", secret) for part in line]
    before = snapshot(project)
    refused = run_cli(*args, project=project)
    assert refused.returncode == 2 and field in refused.stderr and label in refused.stderr
    assert secret not in refused.stderr + refused.stdout and snapshot(project) == before
    run_cli(*args, "--allow-secrets", project=project, check=True)
    assert snapshot(project) != before
