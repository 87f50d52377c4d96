"""Git facts read with the real ``git`` binary: branch, last commit, work-tree counts.

Invariant: never fails and never blocks long. Every call runs ``git`` with a
timeout; outside a repository, without git, or on any error, the answer is
empty (an empty set, ``""``, ``None`` or a ``GitFacts`` with ``is_repo=False``).
Nothing here writes: ``GIT_OPTIONAL_LOCKS=0`` keeps ``git status`` from
refreshing the index of a repository another process may be using.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

TIMEOUT = 2.0
# Unit and record separators cannot occur in a commit subject or an author name.
FIELD = "\x1f"
RECORD = "\x1e"
LOG_FORMAT = f"--format=%H{FIELD}%s{FIELD}%aI{FIELD}%an{RECORD}"
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


@dataclass(frozen=True)
class Commit:
    """One commit: full hash, subject line, author date (ISO 8601) and author name."""

    hash: str
    subject: str
    date: str
    author: str

    @property
    def short(self) -> str:
        return self.hash[:7]


def parse_log(out: str) -> list[Commit]:
    """Commits from ``git log`` output written with ``LOG_FORMAT``; odd records are skipped."""
    commits = []
    for record in out.split(RECORD):
        fields = record.strip("\n").split(FIELD)
        if len(fields) == 4 and fields[0]:
            commits.append(Commit(*fields))
    return commits


@dataclass(frozen=True)
class GitFacts:
    """The state of the repository at a root; all empty when ``is_repo`` is false.

    ``uncommitted`` counts tracked paths with staged or unstaged changes
    (each path once); ``untracked`` counts what ``git status`` lists as
    untracked (a new folder counts once, as git shows it).
    """

    is_repo: bool = False
    branch: str = ""
    detached: bool = False
    last_commit: Commit | None = None
    uncommitted: int = 0
    untracked: int = 0


def _status_facts(out: str) -> tuple[str, bool, int, int]:
    branch, detached, uncommitted, untracked = "", False, 0, 0
    for line in out.splitlines():
        if line.startswith("# branch.head "):
            branch = line[len("# branch.head ") :].strip()
            detached = branch == "(detached)"
        elif line[:2] in ("1 ", "2 ", "u "):
            uncommitted += 1
        elif line.startswith("? "):
            untracked += 1
    return branch, detached, uncommitted, untracked


def git_facts(root: Path, timeout: float = TIMEOUT) -> GitFacts:
    """Branch, last commit and work-tree counts of the repository containing ``root``."""
    status = run_git(root, "status", "--porcelain=v2", "--branch", timeout=timeout)
    if status is None:
        return GitFacts()
    branch, detached, uncommitted, untracked = _status_facts(status)
    log = run_git(root, "log", "-1", LOG_FORMAT, timeout=timeout)
    commits = parse_log(log) if log else []
    if detached:
        branch = "HEAD"
    return GitFacts(
        is_repo=True,
        branch=branch,
        detached=detached,
        last_commit=commits[0] if commits else None,
        uncommitted=uncommitted,
        untracked=untracked,
    )


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
    """The checked-out branch name (``HEAD`` when detached), ``""`` outside a repository."""
    lines = _git(root, "rev-parse", "--abbrev-ref", "HEAD")
    return lines[0] if lines else ""
