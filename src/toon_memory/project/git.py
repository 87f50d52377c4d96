"""Running the real ``git`` binary, and what the current session touched (for recall).

Invariant: never fails and never blocks long. Every call runs ``git`` with a
timeout; outside a repository, without git, or on any error, the answer is
empty (``None``, an empty set, ``""``). Nothing here writes:
``GIT_OPTIONAL_LOCKS=0`` keeps ``git status`` from refreshing the index of a
repository another process may be using. Kept small: recall imports it.
"""

from __future__ import annotations

import os
from pathlib import Path

TIMEOUT = 2.0
GIT_CONFIG = ("-c", "core.quotePath=false", "-c", "color.ui=false")


def git_env() -> dict[str, str]:
    """The environment for a read-only, non-interactive git call."""
    return {**os.environ, "GIT_OPTIONAL_LOCKS": "0", "GIT_TERMINAL_PROMPT": "0"}


def run_git(root: Path, *args: str, timeout: float = TIMEOUT) -> str | None:
    """``git args`` in ``root``: its stdout, or ``None`` on any failure or timeout."""
    import subprocess  # only when project facts are asked for (CLI cold start)

    try:
        done = subprocess.run(
            ["git", *GIT_CONFIG, *args],
            cwd=root,
            capture_output=True,
            text=True,
            encoding="utf-8",
            errors="replace",
            timeout=timeout,
            check=False,
            env=git_env(),
            stdin=subprocess.DEVNULL,
        )
    except (OSError, ValueError, subprocess.SubprocessError):
        return None
    return done.stdout if done.returncode == 0 else None


def _git(root: Path, *args: str) -> list[str]:
    out = run_git(root, *args)
    return out.splitlines() if out else []


def session_files(root: Path) -> frozenset[str]:
    """Files changed in the work tree or on this branch since it left the default branch."""
    if not (root / ".git").exists():
        return frozenset()
    files = {_status_path(line) for line in _git(root, "status", "--porcelain") if len(line) > 3}
    for base in ("origin/HEAD", "main", "master"):
        merge_base = _git(root, "merge-base", "HEAD", base)
        if merge_base:
            files.update(_git(root, "diff", "--name-only", merge_base[0], "HEAD"))
            break
    return frozenset(name for name in files if name)


def _status_path(line: str) -> str:
    """The path of a ``git status --porcelain`` line; a rename ``old -> new`` gives ``new``."""
    path = line[3:].strip()
    if line[:1] in ("R", "C") and " -> " in path:
        path = path.split(" -> ", 1)[1]
    return path.strip('"')


def current_branch(root: Path) -> str:
    """The checked-out branch name (``HEAD`` when detached), ``""`` outside a repository.

    Read from ``.git/HEAD`` when it names a branch (no process started: hooks
    run this on every session start); asked of git otherwise.
    """
    try:
        head = (root / ".git" / "HEAD").read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        head = ""
    if head.startswith("ref: refs/heads/"):
        return head.removeprefix("ref: refs/heads/")
    lines = _git(root, "rev-parse", "--abbrev-ref", "HEAD")
    return lines[0] if lines else ""
