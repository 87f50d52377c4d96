"""The state of a git repository: branch, last commit, work-tree counts.

Invariant: never fails and never blocks long (every git call has a timeout);
outside a repository, without git, or on any error, the answer is a
``GitFacts`` with ``is_repo=False`` and empty values. Read-only.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from toon_memory.project.git import TIMEOUT, run_git

# Unit and record separators cannot occur in a commit subject or an author name.
FIELD = "\x1f"
RECORD = "\x1e"
LOG_FORMAT = f"--format=%H{FIELD}%s{FIELD}%aI{FIELD}%an{RECORD}"


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
