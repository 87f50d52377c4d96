"""session_files: the branch diff is skipped only where it is certainly empty.

Each case compares against the sequential reference (status, then the first
``merge-base`` of origin/HEAD, main, master that resolves, then its diff) on
real repositories: clones with an origin, packed refs, master-only, feature
branches, a tag named ``main``.
"""

from __future__ import annotations

from pathlib import Path

from tests.project.gitrepo import commit_files, git, init_repo

from toon_memory.project.git import on_default_branch, session_files, start_session_files


def reference(root: Path) -> frozenset[str]:
    """What session_files computed before: every git call, one after another."""
    files = {line[3:].strip() for line in git(root, "status", "--porcelain").splitlines()}
    for base in ("origin/HEAD", "main", "master"):
        try:
            found = git(root, "merge-base", "HEAD", base).split()
        except AssertionError:
            continue
        files |= set(git(root, "diff", "--name-only", found[0], "HEAD").split())
        break
    return frozenset(name for name in files if name)


def test_on_main_without_origin_no_branch_diff_is_needed(repo: Path) -> None:
    assert on_default_branch(repo)
    assert session_files(repo) == reference(repo) == {"README.md", "notes.txt"}
    git(repo, "pack-refs", "--all")
    assert not (repo / ".git" / "refs" / "heads" / "main").exists()
    assert on_default_branch(repo)
    assert session_files(repo) == reference(repo)


def test_a_feature_branch_lists_its_commits(repo: Path) -> None:
    git(repo, "checkout", "-q", "-b", "feature")
    commit_files(repo, {"src/new.py": "y = 2\n"}, "New module")
    assert not on_default_branch(repo)
    assert "src/new.py" in session_files(repo)
    assert session_files(repo) == reference(repo)


def test_master_is_default_only_when_there_is_no_main(tmp_path: Path) -> None:
    root = init_repo(tmp_path / "m", branch="master")
    commit_files(root, {"a.py": "a = 1\n"}, "First")
    assert on_default_branch(root)
    git(root, "branch", "main")
    commit_files(root, {"b.py": "b = 1\n"}, "Second, on master only")
    assert not on_default_branch(root)  # git would diff against main
    assert session_files(root) == reference(root) == {"b.py"}


def test_a_clone_keeps_its_unpushed_commits(tmp_path: Path, repo: Path) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "Tidy")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(repo), str(clone))
    git(clone, "config", "user.name", "Ada Lovelace")
    git(clone, "config", "user.email", "ada@example.com")
    commit_files(clone, {"local.py": "x = 1\n"}, "Not pushed")
    assert not on_default_branch(clone)  # origin/HEAD is the base, it lags behind
    assert session_files(clone) == reference(clone) == {"local.py"}


def test_a_tag_named_like_the_branch_is_not_trusted(repo: Path) -> None:
    first = git(repo, "rev-list", "--max-parents=0", "HEAD").strip()
    git(repo, "tag", "main", first)
    assert not on_default_branch(repo)
    assert session_files(repo) == reference(repo)
    assert "src/app.py" in session_files(repo)  # the tag (first commit) is the base


def test_detached_head_and_unborn_branch(tmp_path: Path, repo: Path) -> None:
    git(repo, "checkout", "-q", "--detach", "HEAD~1")
    assert not on_default_branch(repo)
    assert session_files(repo) == reference(repo)
    fresh = init_repo(tmp_path / "fresh")
    (fresh / "a.py").write_text("a = 1\n")
    assert not on_default_branch(fresh)
    assert session_files(fresh) == {"a.py"}


def test_asked_in_a_thread_they_answer_as_asked_at_once(repo: Path, tmp_path: Path) -> None:
    """``start_session_files``: git runs while the caller works; reading the answer, as a
    collection or by ``wait``, waits for it and gives what ``session_files`` gives."""
    git(repo, "checkout", "-q", "-b", "feature")
    commit_files(repo, {"src/new.py": "y = 2\n"}, "New module")
    later = start_session_files(repo)
    assert "src/new.py" in later
    assert set(later) == later.wait() == session_files(repo) and len(later) == len(later.wait())
    outside = start_session_files(tmp_path / "not-a-repo")
    assert list(outside) == [] and "src/new.py" not in outside
