"""Real git repositories for the context-brief tests, isolated from the user's git config."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.conftest import STORES, open_memory
from tests.memory.briefs.helpers import orders_repo, seed_memory

from toon_memory.memory.api import Memory


@pytest.fixture(autouse=True)
def isolated_git(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """No global or system git config; repositories never found above ``tmp_path``."""
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(tmp_path / "gitconfig"))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    for name in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_AUTHOR_DATE",
                 "GIT_COMMITTER_DATE"):  # fmt: skip
        monkeypatch.delenv(name, raising=False)
    yield


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """The orders repository (see ``helpers.orders_repo``), no memory yet."""
    return orders_repo(tmp_path / "orders")


@pytest.fixture(params=STORES)
def memory(request: pytest.FixtureRequest, repo: Path) -> Memory:
    """A memory of five entries dated five days ago, in the orders repository."""
    found = open_memory(request, repo)
    seed_memory(found)
    return found
