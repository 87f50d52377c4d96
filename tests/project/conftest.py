"""Real git repositories for the project-facts tests, isolated from the user's git config."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.project.gitrepo import git, init_repo


@pytest.fixture(autouse=True)
def isolated_git(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """No global or system git config; repositories never found above ``tmp_path``."""
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(tmp_path / "gitconfig"))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    for name in (
        "GIT_DIR",
        "GIT_WORK_TREE",
        "GIT_INDEX_FILE",
        "GIT_AUTHOR_DATE",
        "GIT_COMMITTER_DATE",
    ):
        monkeypatch.delenv(name, raising=False)
    yield


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A repository on ``main`` with two commits, a modified file and an untracked one."""
    root = init_repo(tmp_path / "repo")
    (root / "src").mkdir()
    (root / "src" / "cache.py").write_text("def get_cached(key):\n    return key\n")
    (root / "README.md").write_text("# demo\n")
    git(root, "add", ".")
    git(root, "commit", "-m", "Add the cache", date="2026-01-10T10:00:00")
    (root / "src" / "app.py").write_text("from cache import get_cached\n\nget_cached(1)\n")
    git(root, "add", ".")
    git(root, "commit", "-m", "Use the cache", date="2026-02-20T10:00:00")
    (root / "README.md").write_text("# demo, changed\n")
    (root / "notes.txt").write_text("untracked\n")
    return root
