"""Builders for real git repositories in temp folders (real ``git`` commands, real commits)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path


def git(root: Path, *args: str, date: str | None = None) -> str:
    """Run ``git args`` in ``root``; ``date`` sets author and committer date. Raises on failure."""
    env = dict(os.environ)
    if date is not None:
        env["GIT_AUTHOR_DATE"] = env["GIT_COMMITTER_DATE"] = date
    done = subprocess.run(
        ["git", *args], cwd=root, env=env, capture_output=True, text=True, check=False, timeout=30
    )
    if done.returncode != 0:
        raise AssertionError(f"git {' '.join(args)} failed: {done.stderr}")
    return done.stdout


def init_repo(root: Path, branch: str = "main") -> Path:
    """A new repository at ``root`` on ``branch`` with a local author and no signing."""
    root.mkdir(parents=True, exist_ok=True)
    git(root, "init", "-q", "-b", branch)
    git(root, "config", "user.name", "Ada Lovelace")
    git(root, "config", "user.email", "ada@example.com")
    git(root, "config", "commit.gpgsign", "false")
    return root


def commit_files(root: Path, files: dict[str, str], message: str, date: str | None = None) -> str:
    """Write ``files`` (path -> text), commit them all, and return the new commit's hash."""
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", message, date=date)
    return git(root, "rev-parse", "HEAD").strip()


def write(root: Path, files: dict[str, str]) -> Path:
    """Write ``files`` (path -> text) under ``root`` without committing; returns ``root``."""
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root
