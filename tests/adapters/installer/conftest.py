"""Each installer test gets a fake home (HOME, USERPROFILE, XDG_CONFIG_HOME, APPDATA) and a project."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.adapters.installer.helpers import fake_env


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    values = fake_env(tmp_path)
    for key, value in values.items():
        monkeypatch.setenv(key, value)
    return values


@pytest.fixture
def proj(tmp_path: Path) -> Path:
    root = tmp_path / "work" / "proj"
    (root / ".git").mkdir(parents=True)
    return root
