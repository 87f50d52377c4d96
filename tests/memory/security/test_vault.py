"""The secrets vault: values only in the sealed secrets.toon, never in clear anywhere else."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.conftest import run_cli
from tests.memory.security.conftest import PASSPHRASE, grep, snapshot

from toon_memory import Memory
from toon_memory.errors import EncryptionError, InputError
from toon_memory.store import crypto

VALUE = "sk-live-Zq8pL2vXw9RtY4uB"


def test_store_get_list_forget_on_a_plain_memory(project: Path) -> None:
    memory = Memory(project)
    memory.remember("knowledge", "deploy", "Deploys need the STRIPE token from the vault")
    vault = memory.security
    assert vault.secret("list").names == ()
    assert vault.secret("store", "STRIPE", VALUE).replaced is False
    assert vault.secret("store", "STRIPE", VALUE + "2").replaced is True
    assert vault.secret("get", "STRIPE").value == VALUE + "2"
    assert [n for n, _ in Memory(project).security.secret("list").names] == ["STRIPE"]
    vault.secret("forget", "STRIPE")
    assert vault.secret("list").names == ()
    assert not memory.security.encrypted()  # the memory itself stays plain
    assert crypto.is_sealed((memory.paths.folder / "secrets.toon").read_bytes())


def test_a_value_appears_nowhere_in_clear(project: Path) -> None:
    memory = Memory(project)
    memory.remember("knowledge", "k", "a fact")
    memory.security.secret("store", "OPENAI", VALUE)
    memory.backup()
    memory.export(project / "export.json")
    run_cli("secret", "list", project=project, check=True)
    memory.security.encrypt()
    memory.security.decrypt()  # the vault stays sealed when the memory is decrypted
    assert grep(VALUE, project, project.parent / "home") == []
    assert Memory(project).security.secret("get", "OPENAI").value == VALUE


def test_errors_never_repeat_a_value(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    memory = Memory(project)
    with pytest.raises(InputError) as caught:
        memory.security.secret("store", "bad name!", VALUE)
    assert VALUE not in str(caught.value) and caught.value.field == "name"
    with pytest.raises(InputError) as caught:
        memory.security.secret("get", "X", VALUE)
    assert VALUE not in str(caught.value) and caught.value.field == "value"
    with pytest.raises(InputError, match="action"):
        memory.security.secret("steal", "X")
    with pytest.raises(InputError, match="longer"):
        memory.security.secret("store", "BIG", "v" * 70_000)
    memory.security.secret("store", "OK", VALUE)
    monkeypatch.setenv("TOON_MEMORY_KEY", "another passphrase")
    before = snapshot(project)
    with pytest.raises(EncryptionError) as wrong:
        Memory(project).security.secret("store", "OK", VALUE)
    assert VALUE not in str(wrong.value)
    assert snapshot(project) == before
    monkeypatch.delenv("TOON_MEMORY_KEY")
    with pytest.raises(EncryptionError, match="TOON_MEMORY_KEY"):
        Memory(project).security.secret("get", "OK")


def test_a_changed_vault_byte_is_refused(project: Path) -> None:
    memory = Memory(project)
    memory.security.secret("store", "A", VALUE)
    path = memory.paths.folder / "secrets.toon"
    raw = bytearray(path.read_bytes())
    raw[-3] ^= 0x10
    path.write_bytes(bytes(raw))
    with pytest.raises(EncryptionError, match="changed"):
        Memory(project).security.secret("get", "A")
    with pytest.raises(EncryptionError):
        Memory(project).security.secret("store", "B", "other")
    assert path.read_bytes() == bytes(raw)


def test_missing_names_are_input_errors(project: Path) -> None:
    memory = Memory(project)
    with pytest.raises(InputError, match="no secrets yet"):
        memory.security.secret("get", "NONE")
    memory.security.secret("store", "A", VALUE)
    with pytest.raises(InputError, match="no secret named"):
        memory.security.secret("forget", "NONE")


def test_the_vault_and_an_encrypted_memory_share_one_passphrase(project: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    memory = Memory(project)
    memory.remember("knowledge", "k", "a fact")
    memory.security.secret("store", "A", VALUE)
    monkeypatch.setenv("TOON_MEMORY_KEY", "a different one")
    with pytest.raises(EncryptionError):
        Memory(project).security.encrypt()
    assert not Memory(project).security.encrypted()
    monkeypatch.setenv("TOON_MEMORY_KEY", PASSPHRASE)
    Memory(project).security.encrypt()
    assert Memory(project).security.secret("get", "A").value == VALUE
