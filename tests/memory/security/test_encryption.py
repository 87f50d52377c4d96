"""Encryption at rest through the API: every file covered, every feature kept, clear errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import toon_format
from tests.conftest import no_entry_cap
from tests.memory.security.conftest import grep, snapshot

from toon_memory import Memory
from toon_memory.errors import EncryptionError, ToonMemoryError
from toon_memory.store import crypto
from toon_memory.store.paths import home_dir
from toon_memory.store.watch_backups import (
    newest_digest,
    read_backup_text,
    write_watch_backup,
)

WORD = "quokkasecretword"


def _folders(project: Path) -> tuple[Path, Path]:
    return project, home_dir()


def _fill(memory: Memory, n: int = 5) -> None:
    for i in range(n):
        memory.remember("knowledge", f"fact-{i}", f"{WORD} number {i} lives here")


def _journal_memory(project: Path) -> Memory:
    """A memory big enough that writes stay in the journal (no eager compaction)."""
    no_entry_cap(project)
    memory = Memory(project)
    rows = [{"key": f"seed-{n}", "content": "seed " + "y" * 200} for n in range(400)]
    (project / "seed.json").write_text(json.dumps(rows))
    memory.import_(project / "seed.json")
    (project / "seed.json").unlink()
    memory.compact()
    return memory


def test_every_file_is_sealed_and_grep_finds_nothing(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    memory = _journal_memory(project)
    _fill(memory)
    memory.backup()  # a plain backup, encrypted by `encrypt`
    write_watch_backup(memory.paths, (memory.paths.data.read_text()), compress=True)
    assert grep(WORD, *_folders(project))  # the word is there in clear before
    report = memory.security.encrypt()
    assert report.entries >= 405
    fresh = Memory(project)
    _fill(fresh, 8)  # journal lines, sealed one by one
    fresh.recall(WORD)  # the access log and the derived cache
    fresh.context.health()  # the findings sidecar
    monkeypatch.setenv("TOON_MEMORY_TODAY", "2027-03-01")
    Memory(project).archive(older_than_days=30)  # archive.toon
    Memory(project).backup()
    Memory(project).sharing.watcher(compress=False).check()
    folder = memory.paths.folder
    assert (folder / "archive.toon").exists()
    assert (folder / "journal.jsonl").exists()
    assert all(
        line.startswith(b"~") for line in (folder / "journal.jsonl").read_bytes().splitlines()
    )
    assert grep(WORD, *_folders(project)) == []
    assert grep("seed yyyy", *_folders(project)) == []
    for path in [folder / "data.toon", folder / "archive.toon", *folder.glob("backups/*")]:
        assert crypto.is_sealed(path.read_bytes()), path
    assert all(
        crypto.is_sealed(p.read_bytes()) for p in (home_dir() / ".toon-memory").rglob("*.pickle")
    )
    again = Memory(project)
    assert len(again.entries(include_inactive=True)) + len(again.store.read_archive()) == 408


def test_features_keep_working_when_encrypted(project: Path) -> None:
    memory = Memory(project)
    _fill(memory)
    memory.security.encrypt()
    other = Memory(project)
    other.remember("decision", "db", "Use SQLite for the cache layer")
    assert other.recall("SQLite cache").hits[0].entry.key == "db"
    assert other.stats().active == 6
    other.forget("fact-0")
    assert other.compact()
    third = Memory(project)
    assert {e.key for e in third.entries()} == {"db", "fact-1", "fact-2", "fact-3", "fact-4"}
    backup = third.backup()
    third.forget("db", action="hard")
    third.restore(backup)
    assert "db" in {e.key for e in Memory(project).entries()}
    assert crypto.is_sealed(third.paths.data.read_bytes())


def test_decrypt_writes_everything_in_clear_again(project: Path) -> None:
    memory = Memory(project)
    _fill(memory)
    memory.backup()
    memory.security.encrypt()
    Memory(project).remember("knowledge", "after", f"{WORD} after encryption")
    report = Memory(project).security.decrypt()
    assert report.action == "decrypt"
    folder = memory.paths.folder
    assert not (folder / "encryption.json").exists()
    data = toon_format.loads((folder / "data.toon").read_text(), strict=True)
    assert len(data["entries"]) == 6
    for backup in folder.glob("backups/*"):
        assert WORD in backup.read_text()
    assert len(Memory(project).entries()) == 6


@pytest.mark.parametrize("problem", ["missing", "wrong"])
def test_missing_or_wrong_key_is_a_clear_error_and_changes_nothing(
    project: Path, monkeypatch: pytest.MonkeyPatch, problem: str
) -> None:
    _fill(Memory(project))
    Memory(project).security.encrypt()
    before = snapshot(*_folders(project))
    if problem == "missing":
        monkeypatch.delenv("TOON_MEMORY_KEY")
    else:
        monkeypatch.setenv("TOON_MEMORY_KEY", "wr0ng-Passphrase-xyz")
    memory = Memory(project)
    for action in (
        lambda: memory.recall(WORD),
        lambda: memory.remember("knowledge", "x", "a new fact"),
        lambda: memory.stats(),
        lambda: memory.compact(),
        lambda: memory.security.decrypt(),
        lambda: memory.security.secret("store", "token", "abc"),
    ):
        with pytest.raises(EncryptionError) as caught:
            action()
        assert "TOON_MEMORY_KEY" in str(caught.value)
        assert "wr0ng-Passphrase-xyz" not in str(caught.value)
    assert snapshot(*_folders(project)) == before


@pytest.mark.parametrize("target", ["data.toon", "journal.jsonl", "encryption.json"])
def test_a_changed_byte_is_a_clear_error_and_changes_nothing(project: Path, target: str) -> None:
    memory = _journal_memory(project) if target == "journal.jsonl" else Memory(project)
    _fill(memory)
    memory.security.encrypt()
    Memory(project).remember("knowledge", "tail", "one journal line at least")
    path = memory.paths.folder / target
    raw = bytearray(path.read_bytes())
    if target == "encryption.json":
        settings = json.loads(raw)
        check = bytearray(crypto.MAGIC + b"\0" * 40)
        import base64

        check[-1] ^= 1
        settings["check"] = base64.b64encode(bytes(check)).decode()
        raw = bytearray(json.dumps(settings).encode())
    elif target == "journal.jsonl":
        line = raw.index(b"~")
        raw[line + 30] = ord("A") if raw[line + 30] != ord("A") else ord("B")
    else:
        raw[len(raw) // 2] ^= 0x01
    path.write_bytes(bytes(raw))
    before = snapshot(*_folders(project))
    with pytest.raises(EncryptionError, match=r"changed|passphrase"):
        Memory(project).recall("anything")
    with pytest.raises(EncryptionError):
        Memory(project).remember("knowledge", "new", "a new fact")
    assert snapshot(*_folders(project)) == before


def test_encrypting_twice_or_decrypting_a_plain_memory_changes_nothing(project: Path) -> None:
    memory = Memory(project)
    _fill(memory)
    with pytest.raises(EncryptionError, match="not encrypted"):
        memory.security.decrypt()
    memory.security.encrypt()
    before = snapshot(*_folders(project))
    with pytest.raises(EncryptionError, match="encrypted already"):
        Memory(project).security.encrypt()
    assert snapshot(*_folders(project)) == before


def test_an_interrupted_encrypt_reads_and_finishes(project: Path) -> None:
    """encryption.json is written first: plain files left behind still read, and a second
    `encrypt` seals them."""
    memory = Memory(project)
    _fill(memory)
    plain_backup = memory.backup()
    memory.security.encrypt()
    plain_backup.write_bytes(b"")  # stand-in for a plain file a crash left
    (memory.paths.backups / "data-00000000-000000-000000.toon").write_text(
        memory.paths.backups.joinpath(plain_backup.name).read_text() or "version: 1\n"
    )
    assert len(Memory(project).entries()) == 5
    report = Memory(project).security.encrypt()
    assert any("00000000" in str(p) for p in report.files)
    assert all(crypto.is_sealed(p.read_bytes()) for p in memory.paths.backups.iterdir())


def test_watch_backups_are_sealed_after_compression(project: Path) -> None:
    memory = Memory(project)
    _fill(memory)
    memory.security.encrypt()
    text = memory.paths.data.name  # any text: what matters is the round trip
    for compress in (False, True):
        path = write_watch_backup(memory.paths, f"{WORD} {text}", compress)
        raw = path.read_bytes()
        assert crypto.is_sealed(raw) and WORD.encode() not in raw
        assert read_backup_text(path) == f"{WORD} {text}"
        with pytest.raises(EncryptionError):
            crypto.open_sealed(crypto.Key(b"k" * 32), raw, "document", str(path))
    Memory(project).sharing.watcher().check()
    assert newest_digest(memory.paths)


def test_a_plain_memory_never_imports_cryptography(project: Path) -> None:
    import subprocess
    import sys

    code = (
        "import sys\nfrom toon_memory import Memory\nm = Memory(sys.argv[1])\n"
        "m.remember('knowledge', 'k', 'plain text fact')\nm.recall('plain')\nm.stats()\n"
        "m.compact()\nm.backup()\n"
        "assert not [n for n in sys.modules if n.startswith('cryptography')], 'imported'\n"
    )
    done = subprocess.run([sys.executable, "-c", code, str(project)],
                          capture_output=True, text=True, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr


def test_errors_are_toon_memory_errors(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _fill(Memory(project))
    Memory(project).security.encrypt()
    monkeypatch.delenv("TOON_MEMORY_KEY")
    with pytest.raises(ToonMemoryError):
        Memory(project).entries()
    assert Memory(project).security.encrypted()


def test_the_merge_driver_merges_sealed_versions_and_seals_the_result(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from toon_memory.memory.sharing import merge_files
    from toon_memory.store.documents import read_document, write_document

    memory = Memory(project)
    memory.remember("knowledge", "base", f"{WORD} in the common ancestor")
    memory.security.encrypt()
    data = memory.paths.data
    base, ours, theirs = tmp_path / "base", tmp_path / "ours", tmp_path / "theirs"
    base.write_bytes(data.read_bytes())
    Memory(project).remember("decision", "mine", "added on my branch")
    Memory(project).compact()
    ours.write_bytes(data.read_bytes())
    other = tmp_path / "other"
    (other / ".git").mkdir(parents=True)
    Memory(other).remember("warning", "theirs", "added on their branch")
    theirs.write_bytes(base.read_bytes())
    monkeypatch.chdir(project)  # git runs the driver at the top of the work tree
    write_document(theirs, read_document(base).entries + Memory(other).entries(), [])
    assert crypto.is_sealed(theirs.read_bytes())
    merged = merge_files(base, ours, theirs)
    assert merged.active == 3
    assert crypto.is_sealed(ours.read_bytes()) and WORD.encode() not in ours.read_bytes()
    assert {e.key for e in read_document(ours).entries} == {"base", "mine", "theirs"}
    monkeypatch.delenv("TOON_MEMORY_KEY")
    before = ours.read_bytes()
    with pytest.raises(EncryptionError, match="TOON_MEMORY_KEY"):
        merge_files(base, ours, theirs)
    assert ours.read_bytes() == before


def test_refuse_if_encrypted_guards_exports_that_leave_in_clear(project: Path) -> None:
    memory = Memory(project)
    memory.remember("knowledge", "k", "a fact")
    memory.security.refuse_if_encrypted("a Gist export")  # plain: nothing to refuse
    memory.security.encrypt()
    with pytest.raises(EncryptionError, match="a Gist export would put"):
        Memory(project).security.refuse_if_encrypted("a Gist export")


def test_a_torn_sealed_journal_line_is_set_aside_not_fatal(project: Path) -> None:
    memory = _journal_memory(project)
    memory.security.encrypt()
    Memory(project).remember("knowledge", "before", "written before the tear")
    journal = memory.paths.journal
    whole = journal.read_bytes()
    journal.write_bytes(
        whole + whole[: len(whole) // 2].rstrip(b"\n") + b"\n"
    )  # torn, then a newline
    writer = Memory(project)
    writer.remember("knowledge", "after", "written after the tear")
    assert any("unreadable line" in n for n in writer.notices())
    assert {"before", "after"} <= {e.key for e in Memory(project).entries()}
    kept = list(memory.paths.folder.glob("journal.broken-*"))
    assert kept and grep("written", project) == []
