"""Sharing tests: git isolated from the user's configuration, no proxy, no GitHub token."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def isolated_sharing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """No global or system git config, repositories never found above ``tmp_path``, no token,
    no proxy, no GitHub URL from the environment."""
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(tmp_path / "gitconfig"))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    for name in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_AUTHOR_DATE",
                 "GIT_COMMITTER_DATE", "GITHUB_TOKEN", "TOON_MEMORY_GITHUB_API", "HTTP_PROXY",
                 "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"):  # fmt: skip
        monkeypatch.delenv(name, raising=False)
    yield
