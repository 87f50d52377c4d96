"""What the current git session touched, for the session bias of recall.

Invariant: never fails and never blocks long: outside a repository, without
git, or on any error, the answer is an empty set.
"""

from __future__ import annotations

from pathlib import Path

TIMEOUT = 2.0


def _git(root: Path, *args: str) -> list[str]:
    import subprocess  # only when session bias is asked for

    try:
        done = subprocess.run(
            ["git", *args], cwd=root, capture_output=True, text=True, timeout=TIMEOUT, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return []
    return done.stdout.splitlines() if done.returncode == 0 else []


def session_files(root: Path) -> frozenset[str]:
    """Files changed in the work tree or on this branch since it left the default branch."""
    if not (root / ".git").exists():
        return frozenset()
    files = {
        line[3:].strip().strip('"') for line in _git(root, "status", "--porcelain") if len(line) > 3
    }
    for base in ("origin/HEAD", "main", "master"):
        merge_base = _git(root, "merge-base", "HEAD", base)
        if merge_base:
            files.update(_git(root, "diff", "--name-only", merge_base[0], "HEAD"))
            break
    return frozenset(name for name in files if name)


def current_branch(root: Path) -> str:
    lines = _git(root, "rev-parse", "--abbrev-ref", "HEAD")
    return lines[0] if lines else ""
