"""git_facts, session_files and current_branch on real repositories."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.project.gitrepo import commit_files, git, init_repo

from toon_memory.project.git import current_branch, session_files
from toon_memory.project.repository import Commit, GitFacts, git_facts


def test_facts_of_a_repository_with_changes(repo: Path) -> None:
    git(repo, "add", "README.md")  # staged
    (repo / "src" / "cache.py").write_text("def get_cached(key):\n    return None\n")  # unstaged
    facts = git_facts(repo)
    assert facts.is_repo
    assert facts.branch == "main"
    assert not facts.detached
    assert facts.uncommitted == 2
    assert facts.untracked == 1
    head = git(repo, "rev-parse", "HEAD").strip()
    assert facts.last_commit == Commit(
        head, "Use the cache", "2026-02-20T10:00:00" + _offset(repo), "Ada Lovelace"
    )
    assert facts.last_commit.short == head[:7]


def _offset(repo: Path) -> str:
    return git(repo, "log", "-1", "--format=%aI").strip()[len("2026-02-20T10:00:00") :]


def test_a_file_both_staged_and_modified_counts_once(repo: Path) -> None:
    git(repo, "add", "README.md")
    (repo / "README.md").write_text("# demo, changed again\n")
    assert git_facts(repo).uncommitted == 1


def test_a_clean_repository_has_no_changes(repo: Path) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "Tidy")
    facts = git_facts(repo)
    assert (facts.uncommitted, facts.untracked) == (0, 0)
    assert facts.last_commit is not None and facts.last_commit.subject == "Tidy"


def test_branch_names_and_detached_head(repo: Path) -> None:
    git(repo, "checkout", "-q", "-b", "feature/login")
    assert git_facts(repo).branch == "feature/login"
    assert current_branch(repo) == "feature/login"
    git(repo, "checkout", "-q", "--detach", "HEAD~1")
    facts = git_facts(repo)
    assert facts.detached and facts.branch == "HEAD"
    assert facts.last_commit is not None and facts.last_commit.subject == "Add the cache"


def test_a_repository_without_commits(tmp_path: Path) -> None:
    root = init_repo(tmp_path / "fresh", branch="trunk")
    (root / "a.py").write_text("x = 1\n")
    facts = git_facts(root)
    assert facts == GitFacts(is_repo=True, branch="trunk", untracked=1)


def test_unicode_and_separators_in_subjects_and_authors(tmp_path: Path) -> None:
    root = init_repo(tmp_path / "r")
    git(root, "config", "user.name", "Zoë Ørsted")
    commit_files(root, {"a.txt": "a"}, "Fix «cache» | 50% faster: a,b;c")
    facts = git_facts(root)
    assert facts.last_commit is not None
    assert facts.last_commit.subject == "Fix «cache» | 50% faster: a,b;c"
    assert facts.last_commit.author == "Zoë Ørsted"


def test_a_subfolder_of_a_repository_reads_the_repository(repo: Path) -> None:
    facts = git_facts(repo / "src")
    assert facts.is_repo and facts.branch == "main" and facts.untracked == 1


def test_outside_a_repository_everything_is_empty(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    assert git_facts(plain) == GitFacts()
    assert current_branch(plain) == ""
    assert session_files(plain) == frozenset()


def test_a_missing_folder_is_not_an_error(tmp_path: Path) -> None:
    assert git_facts(tmp_path / "missing") == GitFacts()
    assert current_branch(tmp_path / "missing") == ""


def test_without_git_on_path_everything_is_empty(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    empty = tmp_path / "nobin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    assert git_facts(repo) == GitFacts()
    assert session_files(repo) == frozenset()
    # The branch is read from .git/HEAD, no git process needed; detached asks git: none here.
    assert current_branch(repo) == "main"
    head = (repo / ".git" / "HEAD").read_text()
    (repo / ".git" / "HEAD").write_text("0123456789abcdef0123456789abcdef01234567\n")
    assert current_branch(repo) == ""
    (repo / ".git" / "HEAD").write_text(head)


def test_session_files_cover_the_work_tree_and_the_branch(repo: Path) -> None:
    git(repo, "checkout", "-q", "-b", "feature")
    commit_files(repo, {"src/new.py": "y = 2\n"}, "New module")
    assert session_files(repo) >= {"README.md", "notes.txt", "src/new.py"}
    assert "src/cache.py" not in session_files(repo)


def test_reading_facts_never_rewrites_the_index(repo: Path) -> None:
    import os

    cache = repo / "src" / "cache.py"
    os.utime(cache, ns=(cache.stat().st_atime_ns, cache.stat().st_mtime_ns + 5_000_000_000))
    before = (repo / ".git" / "index").read_bytes()  # its stat data for cache.py is now stale
    facts = git_facts(repo)
    assert facts.uncommitted == 1  # same content: only README.md changed
    assert (repo / ".git" / "index").read_bytes() == before


def test_a_renamed_file_counts_under_its_new_name(repo: Path) -> None:
    tracked = sorted(p.name for p in repo.iterdir() if p.is_file())[0]
    git(repo, "mv", tracked, "renamed.txt")
    files = session_files(repo)
    assert "renamed.txt" in files
    assert not any(" -> " in name for name in files)
