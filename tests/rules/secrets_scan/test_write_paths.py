"""Every write path refuses credentials: remember (API, CLI subprocess, MCP client), a file
import, the global store and a Gist import skip and report them; the explicit override keeps
them; look-alikes pass everywhere; no message ever shows a secret."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.client import Client
from tests.adapters.server.helpers import snapshot, text_of
from tests.conftest import run_cli
from tests.rules.secrets_scan.fixtures import HARMLESS, SECRETS

from toon_memory import InputError, Memory
from toon_memory.adapters.server.app import ToonMemoryServer
from toon_memory.rules.secrets import scan_text

FIELDS = ("content", "tags", "file")


def _call(memory: Memory, field: str, text: str, **extra: Any) -> Any:
    args: dict[str, Any] = {"content": "A note", "file": "", "tags": None}
    args[field] = [text] if field == "tags" else text  # a tag is one word: the credential
    return memory.remember("knowledge", "creds-note", args["content"], file=args["file"],
                           tags=args["tags"], **extra)  # fmt: skip


@pytest.mark.parametrize("field", FIELDS)
@pytest.mark.parametrize("name", sorted(SECRETS))
def test_remember_refuses_a_credential(project: Path, name: str, field: str) -> None:
    text, secret, kind = SECRETS[name]
    memory = Memory(project)
    memory.remember("knowledge", "seed", "Something harmless")
    before = snapshot(project)
    value = secret if field == "tags" else text
    if field == "tags" and (any(ch.isspace() or ch == ";" for ch in secret)
                            or not scan_text(secret)):  # fmt: skip
        pytest.skip("a tag holds no whitespace or ';'; this kind is found only in context")
    with pytest.raises(InputError) as caught:
        _call(memory, field, value)
    message = str(caught.value)
    assert caught.value.field == field and kind in message and "memory_secret" in message
    assert secret not in message
    assert snapshot(project) == before
    kept = _call(memory, field, value, allow_secrets=True)
    assert kept.created


@pytest.mark.parametrize("name", sorted(HARMLESS))
def test_look_alikes_are_remembered(project: Path, name: str) -> None:
    memory = Memory(project)
    memory.remember("knowledge", f"note-{name}", HARMLESS[name], file="docs/a.md:3")
    assert memory.get(f"note-{name}").content == HARMLESS[name]


def _rows() -> list[dict[str, Any]]:
    rows = [{"key": f"ok-{n}", "category": "knowledge", "content": t} for n, t in HARMLESS.items()]
    rows += [{"key": f"bad-{n}", "category": "knowledge", "content": t}
             for n, (t, _s, _k) in SECRETS.items()]  # fmt: skip
    return rows


def test_import_skips_and_reports_rows_with_credentials(project: Path, tmp_path: Path) -> None:
    source = tmp_path / "in.json"
    gh = SECRETS["github"][1]
    rows = [*_rows(), {"key": gh, "category": "knowledge", "content": "token as key"}]
    source.write_text(json.dumps(rows))
    memory = Memory(project)
    report = memory.import_(source)
    assert report.added == len(HARMLESS) and report.skipped == len(SECRETS) + 1
    text = "\n".join(report.messages)
    for number, (name, (_t, secret, kind)) in enumerate(SECRETS.items(), len(HARMLESS) + 1):
        assert f"entry {number} (bad-{name}): skipped: content holds" in text and kind in text
        assert secret not in text
    assert f"entry {len(rows)}: skipped: key holds" in text and gh not in text
    assert "memory_secret" in text
    again = Memory(project).import_rows(rows, allow_secrets=True)
    assert again.added == len(SECRETS) + 1


def test_global_import_skips_credentials_unless_allowed(project: Path) -> None:
    other = project.parent / "other"
    (other / ".git").mkdir(parents=True)
    source = Memory(other)
    text, secret, kind = SECRETS["openai"]
    source.remember("knowledge", "openai-key", text, allow_secrets=True)
    source.remember("knowledge", "harmless", HARMLESS["uuid"])
    held = source.sharing.export_global()
    assert held.added == 1 and held.skipped == 1 and secret not in "\n".join(held.messages)
    source.sharing.export_global(allow_secrets=True)
    memory = Memory(project)
    report = memory.sharing.import_global()
    assert report.skipped == 1 and report.added == 1 and report.to_dict()["skipped"] == 1
    assert kind in "\n".join(report.messages) and secret not in "\n".join(report.messages)
    assert [e.key for e in memory.entries()] == ["harmless"]
    replaced = memory.sharing.import_global(merge=False)
    assert replaced.skipped == 1
    assert memory.sharing.import_global(allow_secrets=True).added == 1
    assert memory.get("openai-key").content == text


def test_cli_remember_and_import(project: Path, tmp_path: Path) -> None:
    text, secret, kind = SECRETS["aws-key-id"]
    refused = run_cli("remember", "-c", "knowledge", "-k", "aws", "-m", text, project=project)
    assert refused.returncode == 2, refused.stderr
    out = refused.stdout + refused.stderr
    assert "content" in out and kind in out and "memory_secret" in out and secret not in out
    kept = run_cli("remember", "-c", "knowledge", "-k", "aws", "-m", text, "--allow-secrets",
                   project=project)  # fmt: skip
    assert kept.returncode == 0, kept.stderr
    fine = run_cli("remember", "-c", "knowledge", "-k", "sha", "-m", HARMLESS["sha256"],
                   project=project)  # fmt: skip
    assert fine.returncode == 0, fine.stderr
    source = tmp_path / "rows.json"
    source.write_text(json.dumps(_rows()))
    done = run_cli("import", str(source), "--json", project=project)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["skipped"] == len(SECRETS)
    assert all(s not in done.stdout + done.stderr for _t, s, _k in SECRETS.values())
    allowed = run_cli("import", str(source), "--allow-secrets", "--json", project=project)
    assert json.loads(allowed.stdout)["added"] == len(SECRETS), allowed.stderr


def test_mcp_remember(project: Path) -> None:
    text, secret, kind = SECRETS["slack"]

    async def play() -> list[Any]:
        async with Client(ToonMemoryServer(project)) as client:
            base = {"category": "knowledge", "key": "slack-bot", "content": text}
            return [await client.call_tool("memory_remember", base),
                    await client.call_tool("memory_remember", {**base, "allow_secrets": True}),
                    await client.call_tool("memory_remember", {**base, "key": "hex",
                                           "content": HARMLESS["hex-colours"]})]  # fmt: skip

    refused, kept, fine = anyio.run(play)
    assert refused.is_error and kind in text_of(refused) and "memory_secret" in text_of(refused)
    assert secret not in text_of(refused) and "content" in text_of(refused)
    assert not kept.is_error and not fine.is_error, (text_of(kept), text_of(fine))
    assert Memory(project).get("slack-bot").content == text


def test_cli_global_export_and_import(project: Path) -> None:
    text, secret, kind = SECRETS["pem"]
    Memory(project).remember("knowledge", "deploy-key", text, allow_secrets=True)
    held = run_cli("global", "export", "--json", project=project)
    assert held.returncode == 0, held.stderr
    data = json.loads(held.stdout)
    assert data["skipped"] == 1 and kind in "\n".join(data["messages"])
    assert "MIIEow" not in held.stdout + held.stderr and secret not in held.stdout
    sent = run_cli("global", "export", "--allow-secrets", "--json", project=project)
    assert json.loads(sent.stdout)["added"] == 1, sent.stderr
    other = project.parent / "other"
    (other / ".git").mkdir(parents=True)
    refused = run_cli("global", "import", "--json", project=other)
    assert json.loads(refused.stdout)["skipped"] == 1, refused.stderr
    kept = run_cli("global", "import", "--allow-secrets", "--json", project=other)
    assert json.loads(kept.stdout)["added"] == 1, kept.stderr
    assert Memory(other).get("deploy-key").content == text
