"""Fixtures for the simple-local-memory commands: a workspace and a subprocess runner."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

Runner = Callable[..., subprocess.CompletedProcess[str]]

MEMORY_MD = """# MEMORY

Curated insights about this project.

## Frontend

- The user wants Tailwind everywhere.
- Dark mode is the default.

## Deployment

Deploys go through `make release`; never push tags by hand.

```bash
# not a heading inside a fence
make release
```
"""

DAY_OLD = {
    "date": "2026-03-15",
    "memories": [
        {
            "id": "6f1c2a10-0000-4000-8000-000000000001",
            "type": "preference",
            "content": "用户偏好深色模式",
            "importance": 0.9,
            "tags": ["ui", "preferences"],
            "timestamp": "2026-03-15T10:30:00Z",
            "context": "在UI设置期间讨论",
        },
        {
            "id": "6f1c2a10-0000-4000-8000-000000000002",
            "type": "context",
            "content": "The staging server is called blue-falcon",
            "importance": 0.5,
            "tags": [],
            "timestamp": "2026-03-15T11:00:00Z",
            "context": "",
            "mood": "calm",
        },
    ],
}
DAY_RECENT = {
    "date": "2026-07-14",
    "memories": [
        {
            "id": "6f1c2a10-0000-4000-8000-000000000003",
            "type": "fact",
            "content": "The API rate limit is 100 requests per minute",
            "importance": 0.7,
            "tags": ["api"],
            "timestamp": "2026-07-14T09:15:00Z",
            "context": "from the docs",
        },
        {
            "id": "6f1c2a10-0000-4000-8000-000000000004",
            "type": "lesson",
            "content": "Always run the migrations before the deploy",
            "importance": 0.95,
            "tags": ["deploy"],
            "timestamp": "2026-07-14T17:45:00Z",
        },
    ],
}
PREFERENCES = {
    "preferences": [
        {
            "key": "css_framework",
            "value": "Tailwind",
            "set_at": "2026-03-15T10:30:00Z",
            "reason": "用户偏好于原生CSS",
        },
        {"key": "indent", "value": 2, "set_at": "2026-04-01T08:00:00Z", "reason": ""},
    ]
}
DECISIONS = {
    "decisions": [
        {
            "id": "9a0b0000-0000-4000-8000-000000000001",
            "title": "使用React作为前端",
            "reason": "用户要求基于组件的架构",
            "made_at": "2026-03-15T10:30:00Z",
            "status": "active",
        },
    ]
}
LESSONS = {
    "lessons": [
        {
            "id": "7c0d0000-0000-4000-8000-000000000001",
            "content": "Check the TZ of cron jobs",
            "context": "a job ran at 3 am UTC",
            "importance": 0.9,
            "learned_at": "2026-05-02T12:00:00Z",
        },
    ]
}


def write_json(path: Path, data: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")


def build_slm_workspace(folder: Path) -> Path:
    """A workspace as simple-local-memory writes it."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "MEMORY.md").write_text(MEMORY_MD, encoding="utf-8")
    write_json(
        folder / "SESSION-STATE.json",
        {
            "current_task": "ship v2",
            "key_context": ["Tailwind"],
            "pending_actions": [],
            "recent_decisions": ["React"],
            "last_updated": "2026-07-14T18:00:00Z",
        },
    )
    write_json(folder / "memories" / "2026-03-15.json", DAY_OLD)
    write_json(folder / "memories" / "2026-07-14.json", DAY_RECENT)
    write_json(folder / "memories" / "preferences.json", PREFERENCES)
    write_json(folder / "memories" / "decisions.json", DECISIONS)
    write_json(folder / "memories" / "lessons.json", LESSONS)
    return folder


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    (root / ".git").mkdir(parents=True)
    return root


def _run(root: Path, args: tuple[str, ...], module: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, TOON_MEMORY_PROJECT=str(root))
    return subprocess.run(
        [sys.executable, "-m", module, *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=root,
        timeout=60,
        check=False,
    )


@pytest.fixture
def slm(workspace: Path) -> Runner:
    """Run ``memory-*`` commands (``slm("memory-store", ...)``) in the workspace."""

    def run(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        done = _run(workspace, args, "toon_memory.adapters.cli.slm_commands")
        if check and done.returncode != 0:
            raise AssertionError(f"exit {done.returncode}\n{done.stdout}\n{done.stderr}")
        return done

    return run


@pytest.fixture
def toon(workspace: Path) -> Runner:
    """Run ``toon-memory`` in the workspace."""

    def run(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        done = _run(workspace, args, "toon_memory")
        if check and done.returncode != 0:
            raise AssertionError(f"exit {done.returncode}\n{done.stdout}\n{done.stderr}")
        return done

    return run
