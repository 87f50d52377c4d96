"""The security tools through the real MCP client (in process and over stdio) and the CLI.

Invalid arguments are tool errors naming the parameter and change no file; no answer but
``memory_secret action=get`` ever holds a secret value."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.client import Client
from tests.adapters.server.helpers import make_project, snapshot, stdio_params, text_of
from tests.conftest import run_cli
from tests.memory.security.conftest import PASSPHRASE, grep

from toon_memory import Memory
from toon_memory.adapters.server.app import ToonMemoryServer
from toon_memory.store import crypto

VALUE = "ghp_R2d2C3poBb8Yoda4Luke0Leia9Han"
# tool -> (invalid arguments, parameter the error must name, valid arguments)
SCRIPT: list[tuple[str, dict[str, Any], str, dict[str, Any]]] = [
    ("memory_secret", {"action": "steal", "name": "GH"}, "action",
     {"action": "store", "name": "GH", "value": VALUE}),
    ("memory_secret", {"action": "store", "name": "bad name", "value": VALUE}, "name",
     {"action": "list"}),
    ("memory_encrypt", {"force": True}, "force", {}),
    ("memory_secret", {"action": "get", "name": "GH", "value": "x"}, "value",
     {"action": "get", "name": "GH"}),
    ("memory_decrypt", {"now": 1}, "now", {}),
    ("memory_secret", {"action": "forget"}, "name", {"action": "forget", "name": "GH"}),
]  # fmt: skip


async def play(client: Client, roots: list[Path]) -> list[tuple[str, Any, bool, Any]]:
    log = []
    for name, bad, _field, good in SCRIPT:
        before = snapshot(*roots)
        invalid = await client.call_tool(name, bad)
        unchanged = snapshot(*roots) == before
        log.append((name, invalid, unchanged, await client.call_tool(name, good)))
    return log


def check(log: list[tuple[str, Any, bool, Any]]) -> list[str]:
    texts = []
    for (name, invalid, unchanged, valid), row in zip(log, SCRIPT, strict=True):
        assert invalid.is_error and f"'{row[2]}'" in text_of(invalid), (name, text_of(invalid))
        assert unchanged, f"{name}: an invalid call changed a file"
        assert not valid.is_error, (name, text_of(valid))
        assert VALUE not in text_of(invalid)
        if row[3].get("action") != "get":
            assert VALUE not in text_of(valid) + str(valid.structured_content)
        texts.append(text_of(valid))
    return texts


def _seed(project: Path) -> None:
    Memory(project).remember("decision", "use-zod", "Validate payloads with Zod")


def test_in_process(project: Path) -> None:
    _seed(project)
    home = Path(os.environ["TOON_MEMORY_HOME"])

    async def run() -> list[tuple[str, Any, bool, Any]]:
        async with Client(ToonMemoryServer(project)) as client:
            return await play(client, [project / ".toon-memory", home])

    texts = check(anyio.run(run))
    assert "stored secret 'GH'" in texts[0]
    assert "GH (updated" in texts[1]
    assert "encrypted" in texts[2]
    assert texts[3] == VALUE
    assert "decrypted" in texts[4]
    assert "forgot secret 'GH'" in texts[5]
    assert [e.key for e in Memory(project).entries()] == ["use-zod"]


def test_stdio_end_to_end(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    project, home = make_project(tmp_path)
    params = stdio_params(project, home, {"TOON_MEMORY_KEY": PASSPHRASE})
    monkeypatch.setenv("TOON_MEMORY_HOME", str(home))  # seed the home the server uses
    _seed(project)

    async def run() -> tuple[set[str], list[tuple[str, Any, bool, Any]]]:
        async with Client(params) as client:
            names = {t.name for t in (await client.list_tools()).tools}
            return names, await play(client, [project / ".toon-memory", home])

    names, log = anyio.run(run)
    assert {"memory_encrypt", "memory_decrypt", "memory_secret"} <= names
    texts = check(log)
    assert texts[3] == VALUE
    assert grep(VALUE, project, home) == []


def test_cli(project: Path) -> None:
    _seed(project)
    done = run_cli("encrypt", project=project, check=True)
    assert "encrypted" in done.stdout
    data = project / ".toon-memory/memory/data.toon"
    assert crypto.is_sealed(data.read_bytes())
    again = run_cli("encrypt", project=project)
    assert again.returncode == 1 and "encrypted already" in again.stderr
    no_key = run_cli("recall", "Zod", project=project, env={"TOON_MEMORY_KEY": ""})
    assert no_key.returncode == 1 and "TOON_MEMORY_KEY" in no_key.stderr
    wrong = run_cli("remember", "-c", "knowledge", "-k", "x", "-m", "y", project=project,
                    env={"TOON_MEMORY_KEY": "nope"})  # fmt: skip
    assert wrong.returncode == 1 and "not the passphrase" in wrong.stderr
    assert "use-zod" in run_cli("recall", "Zod", project=project, check=True).stdout
    stored = run_cli("secret", "store", "GH", "--value", VALUE, project=project, check=True)
    assert "stored" in stored.stdout and VALUE not in stored.stdout + stored.stderr
    assert run_cli("secret", "get", "GH", project=project, check=True).stdout.strip() == VALUE
    listed = json.loads(run_cli("secret", "list", "--json", project=project, check=True).stdout)
    assert [s["name"] for s in listed["secrets"]] == ["GH"] and VALUE not in str(listed)
    bad = run_cli("secret", "get", "nope", project=project)
    assert bad.returncode == 2 and "no secret named" in bad.stderr
    decrypted = run_cli("decrypt", "--json", project=project, check=True)
    assert json.loads(decrypted.stdout)["action"] == "decrypt"
    assert b"use-zod" in data.read_bytes()
    plain = run_cli("decrypt", project=project)
    assert plain.returncode == 1 and "not encrypted" in plain.stderr
    assert grep(VALUE, project, Path(os.environ["TOON_MEMORY_HOME"])) == []
