"""Team sync through git, with real repositories: two clones of a bare repository edit one
memory concurrently, then ``git merge`` and ``git pull --rebase`` go through the merge driver
(registered by ``git-setup``) without conflict markers and without losing an entry."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
import toon_format
from tests.conftest import no_entry_cap, run_cli
from tests.project.gitrepo import git, init_repo

from toon_memory import Memory
from toon_memory.project.teamgit import CHAINED, HOOK_MARK

DATA = ".toon-memory/memory/data.toon"


def tm(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run_cli(*args, project=project, check=True)


def clone(origin: Path, where: Path) -> Path:
    git(origin.parent, "clone", "-q", str(origin), str(where))
    git(where, "config", "user.name", "Grace Hopper")
    git(where, "config", "user.email", "grace@example.com")
    git(where, "config", "commit.gpgsign", "false")
    return where


def strict_entries(path: Path) -> list[dict[str, object]]:
    text = path.read_text(encoding="utf-8")
    assert "<<<<<<<" not in text and ">>>>>>>" not in text
    data = toon_format.loads(text, strict=True)
    assert data["version"] == 1
    return list(data["entries"])


@pytest.fixture
def team(tmp_path: Path) -> tuple[Path, Path]:
    """(alice, bob): two clones of one bare repository holding a shared memory."""
    origin = tmp_path / "origin.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(origin))
    alice = init_repo(tmp_path / "alice")
    git(alice, "remote", "add", "origin", str(origin))
    memory = Memory(alice)
    memory.init()
    for key, content in (("api-port", "API listens on 8080"), ("old-note", "Use yarn"),
                         ("db", "Postgres 15"), ("flaky", "test_sync is flaky")):  # fmt: skip
        memory.remember("knowledge", key, content, tags="seed")
    memory.compact()
    tm(alice, "git-setup")
    git(alice, "add", "-A")
    git(alice, "commit", "-q", "-m", "shared memory")
    git(alice, "push", "-q", "-u", "origin", "main")
    bob = clone(origin, tmp_path / "bob")
    tm(bob, "git-setup")
    return alice, bob


def _edit_both(alice: Path, bob: Path) -> None:
    a, b = Memory(alice), Memory(bob)
    a.remember("knowledge", "api-port", "API listens on 9090 (alice)", tags="ports")
    b.remember("knowledge", "api-port", "API listens on 7070 (bob)", tags="http")
    a.forget("old-note")  # soft forget on one side
    b.forget("flaky", action="hard")  # hard forget on the other
    a.remember("decision", "alice-only", "Alice adds this")
    b.remember("pattern", "bob-only", "Bob adds that")
    a.remember("knowledge", "lint-tool", "ruff (alice)")
    b.remember("knowledge", "lint-tool", "flake8 (bob)")
    for root, name in ((alice, "a.txt"), (bob, "b.txt")):
        (root / name).write_text("work\n", encoding="utf-8")
        git(root, "add", name)
        git(root, "commit", "-q", "-m", f"work in {name}")  # the hook stages data.toon


def _check_merged(root: Path) -> None:
    rows = strict_entries(root / DATA)
    active = {r["key"]: r for r in rows if r["status"] == "active"}
    texts = {(r["key"], r["content"]) for r in rows}
    assert set(active) == {"api-port", "db", "alice-only", "bob-only", "lint-tool"}
    assert active["api-port"]["content"] in ("API listens on 9090 (alice)",
                                             "API listens on 7070 (bob)")  # fmt: skip
    for text in ("API listens on 8080", "API listens on 9090 (alice)", "API listens on 7070 (bob)"):
        assert ("api-port", text) in texts
    assert {"ports", "http", "seed"} <= set(str(active["api-port"]["tags"]).split(";"))
    assert {("lint-tool", "ruff (alice)"), ("lint-tool", "flake8 (bob)")} <= texts
    assert [r["status"] for r in rows if r["key"] == "old-note"] == ["obsolete"]
    assert not [r for r in rows if r["key"] == "flaky"]
    assert len({r["id"] for r in rows}) == len(rows)
    memory = Memory(root)  # the merged memory opens and recalls
    assert memory.get("bob-only").content == "Bob adds that"
    assert "lint-tool" in [e.key for e in memory.recall("lint tool").entries]


def test_git_merge_uses_the_driver(team: tuple[Path, Path]) -> None:
    alice, bob = team
    _edit_both(alice, bob)
    git(alice, "push", "-q")
    git(bob, "pull", "-q", "--no-rebase", "--no-edit")
    _check_merged(bob)
    assert git(bob, "status", "--porcelain").strip() == ""
    git(bob, "push", "-q")
    git(alice, "pull", "-q", "--no-rebase")  # a fast-forward: alice gets the same memory
    assert strict_entries(alice / DATA) == strict_entries(bob / DATA)


def test_git_pull_rebase_uses_the_driver(team: tuple[Path, Path]) -> None:
    alice, bob = team
    _edit_both(alice, bob)
    git(alice, "push", "-q")
    git(bob, "pull", "-q", "--rebase")
    _check_merged(bob)
    assert "rebase" not in git(bob, "status")


def test_hook_folds_the_journal_before_a_commit(team: tuple[Path, Path]) -> None:
    alice, _ = team
    no_entry_cap(alice)
    memory = Memory(alice)
    for n in range(150):  # data.toon past the eager-compaction size: writes stay in the journal
        memory.remember("knowledge", f"bulk-{n}", f"entry {n} " + "lorem ipsum dolor " * 30)
    memory.compact()
    memory.remember("decision", "late-decision", "Only in the journal so far")
    journal = alice / ".toon-memory/memory/journal.jsonl"
    assert journal.exists() and journal.stat().st_size > 0
    (alice / "c.txt").write_text("x\n", encoding="utf-8")
    git(alice, "add", "c.txt")
    git(alice, "commit", "-q", "-m", "work")
    committed = git(alice, "show", f"HEAD:{DATA}")
    keys = {r["key"] for r in toon_format.loads(committed, strict=True)["entries"]}
    assert "late-decision" in keys and "bulk-149" in keys
    assert not journal.exists() or journal.stat().st_size == 0


def test_setup_is_idempotent_and_chains_an_existing_hook(tmp_path: Path) -> None:
    root = init_repo(tmp_path / "repo")
    hooks = root / ".git" / "hooks"
    hooks.mkdir(parents=True, exist_ok=True)
    old = hooks / "pre-commit"
    old.write_text('#!/bin/sh\necho ran >> "$(git rev-parse --show-toplevel)/old-hook.log"\n')
    old.chmod(0o755)
    (root / ".gitattributes").write_text("*.png binary")  # no final newline: kept as is
    first = tm(root, "git-setup", "--json").stdout
    again = tm(root, "git-setup", "--json").stdout
    assert '"hook_written": true' in first and '"hook_written": false' in again
    assert '"attributes_added": false' in again
    attributes = (root / ".gitattributes").read_text()
    assert attributes == "*.png binary\n.toon-memory/memory/*.toon merge=toon-memory\n"
    assert not (root / "old-hook.log").exists()
    assert HOOK_MARK in (hooks / "pre-commit").read_text()
    assert (hooks / CHAINED).read_text().startswith("#!/bin/sh\necho ran")
    driver = git(root, "config", "merge.toon-memory.driver").strip()
    assert driver.endswith("merge-driver %O %A %B") and os.path.isabs(driver.split()[0])
    ignores = (root / ".toon-memory/memory/.gitignore").read_text().splitlines()
    assert "backups/" in ignores and "watch.log" in ignores
    Memory(root).remember("knowledge", "k", "v")
    (root / "f.txt").write_text("f\n")
    git(root, "add", "f.txt")
    git(root, "commit", "-q", "-m", "first")
    assert (root / "old-hook.log").read_text() == "ran\n"  # the earlier hook ran too
    assert DATA in git(root, "show", "--name-only", "HEAD")


def test_setup_outside_git_is_a_clear_error(tmp_path: Path) -> None:
    root = tmp_path / "plain"
    (root / ".toon-memory").mkdir(parents=True)
    done = run_cli("git-setup", project=root)
    assert done.returncode == 1 and "not in a git repository" in done.stderr
    assert not (root / ".gitattributes").exists()


def test_setup_in_a_subproject_points_at_its_memory(tmp_path: Path) -> None:
    top = init_repo(tmp_path / "mono")
    sub = top / "services" / "api"
    (sub / ".toon-memory").mkdir(parents=True)
    tm(sub, "git-setup")
    line = (top / ".gitattributes").read_text().strip()
    assert line == "services/api/.toon-memory/memory/*.toon merge=toon-memory"
    assert (
        '"$(git rev-parse --show-toplevel)"/services/api'
        in (top / ".git/hooks/pre-commit").read_text()
    )
    Memory(sub).remember("knowledge", "sub-key", "in the sub project")
    (top / "x.txt").write_text("x\n")
    git(top, "add", "x.txt")
    git(top, "commit", "-q", "-m", "x")
    assert "services/api/.toon-memory/memory/data.toon" in git(top, "show", "--name-only", "HEAD")


def test_pre_commit_command_without_memory(tmp_path: Path) -> None:
    root = init_repo(tmp_path / "empty")
    done = tm(root, "git-hook", "pre-commit")
    assert "nothing to stage" in done.stdout


def _doc(path: Path, *entries: tuple[str, str, str]) -> Path:
    from toon_memory.model.entry import Entry
    from toon_memory.store.codec import encode_document

    rows = [Entry(id=i, category="knowledge", key=k, content=c, created="2026-07-01T00:00:00Z",
                  updated="2026-07-01T00:00:00Z") for i, k, c in entries]  # fmt: skip
    path.write_text(encode_document(rows, []), encoding="utf-8")
    return path


def test_merge_driver_command_merges_archive_files_and_refuses_what_does_not_decode(
    tmp_path: Path,
) -> None:
    base = tmp_path / "O"
    base.write_text("")  # both sides added the file: git passes an empty base
    ours = _doc(tmp_path / "A", ("aaaa0001", "moved-1", "archived on one side"))
    theirs = _doc(tmp_path / "B", ("bbbb0001", "moved-2", "archived on the other"))
    done = run_cli("merge-driver", str(base), str(ours), str(theirs), "--json")
    assert done.returncode == 0, done.stderr
    assert {r["key"] for r in strict_entries(ours)} == {"moved-1", "moved-2"}
    before = ours.read_bytes()
    (tmp_path / "B").write_text("version: 1\nentries[2|]{id|key}:\n  <<<<<<< HEAD\n")
    failed = run_cli("merge-driver", str(base), str(ours), str(theirs))
    assert failed.returncode == 1 and str(theirs) in failed.stderr
    assert ours.read_bytes() == before  # nothing written: git reports a conflict


def test_pre_commit_outside_git_changes_nothing(tmp_path: Path) -> None:
    """Found by the CLI fuzz: refused outside a git work tree, it must not fold the journal."""
    root = tmp_path / "plain"
    root.mkdir()
    memory = Memory(root)
    memory.remember("decision", "use-zod", "Validate input with zod.")
    memory.recall("zod")  # an access record waits in the access log until a compaction
    folder = root / ".toon-memory" / "memory"
    before = {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}
    done = run_cli("git-hook", "pre-commit", project=root)
    assert done.returncode != 0 and "not in a git repository" in done.stderr
    assert {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()} == before


def test_pre_commit_api_folds_and_stages(tmp_path: Path) -> None:
    root = init_repo(tmp_path / "repo")
    memory = Memory(root)
    memory.remember("knowledge", "k", "v")
    message = memory.sharing.pre_commit()
    assert message.endswith("staged data.toon")
    assert git(root, "diff", "--cached", "--name-only").split() == [DATA]
    assert git(root, "log", "--oneline", "--all") == ""  # nothing committed


def test_the_merge_driver_never_replaces_a_device(tmp_path: Path) -> None:
    import os
    import stat

    from tests.conftest import run_cli

    base = tmp_path / "base.toon"
    base.write_text("version: 1\nentries[0]:\nsummaries: []\n")
    done = run_cli("merge-driver", str(base), os.devnull, str(base), project=tmp_path)
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert stat.S_ISCHR(os.lstat(os.devnull).st_mode)


def test_the_merge_driver_never_writes_into_a_memory_folder(tmp_path: Path) -> None:
    """Found by the CLI fuzz: %A = the memory's journal put a TOON document in journal.jsonl."""
    root = tmp_path / "p"
    root.mkdir()
    memory = Memory(root)
    memory.remember("decision", "use-zod", "Validate input with zod.")
    folder = root / ".toon-memory" / "memory"
    before = {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}
    base = tmp_path / "base.toon"
    base.write_text("version: 1\nentries[0]:\nsummaries: []\n")
    for ours in (folder / "journal.jsonl", folder / "data.toon"):
        done = run_cli("merge-driver", str(base), str(ours), str(base), project=root)
        assert done.returncode == 2 and "ours" in done.stderr and "%A" in done.stderr
    assert {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()} == before
