"""What changed in a repository since a moment: commits and changed files.

Invariant: never fails and never blocks long (every git call has a timeout);
outside a repository, without git, or on any error, the answer is empty.
Answers are bounded by ``limit``. Paths are relative to ``root``.
"""

from __future__ import annotations

import re
from datetime import date, datetime
from pathlib import Path

from toon_memory.project.git import TIMEOUT, run_git
from toon_memory.project.repository import LOG_FORMAT, Commit, parse_log

COMMIT_LIMIT = 50
FILE_LIMIT = 200
# Commits whose files are listed: keeps a wide ``since`` on a long history bounded.
SCAN_COMMITS = 1000
_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")
LAST_YEAR = 2099
LAST_MOMENT = "2099-12-31T23:59:59"


def since_arg(since: date | str) -> str:
    """The ``--since`` value for git: a day means from its midnight (local time).

    git reads a bare ``YYYY-MM-DD`` as that day at the current time of day,
    so days get an explicit midnight; git ignores years past 2099, so those
    become the end of 2099. Other strings ("2 weeks ago", an ISO timestamp)
    go to git as they are.
    """
    if isinstance(since, date) and since.year > LAST_YEAR:
        return LAST_MOMENT
    if isinstance(since, datetime):
        return since.isoformat()
    if isinstance(since, date):
        return f"{since.isoformat()}T00:00:00"
    text = since.strip()
    if _DAY.fullmatch(text):
        return LAST_MOMENT if int(text[:4]) > LAST_YEAR else f"{text}T00:00:00"
    return text


def commits_since(
    root: Path, since: date | str, limit: int = COMMIT_LIMIT, timeout: float = TIMEOUT
) -> list[Commit]:
    """Commits reachable from HEAD made since ``since``, newest first, at most ``limit``."""
    if limit <= 0:
        return []
    out = run_git(
        root, "log", f"--since={since_arg(since)}", f"--max-count={limit}", LOG_FORMAT,
        timeout=timeout,
    )  # fmt: skip
    return parse_log(out) if out else []


def _committed_files(root: Path, since: date | str, timeout: float) -> list[str]:
    out = run_git(
        root, "log", f"--since={since_arg(since)}", f"--max-count={SCAN_COMMITS}",
        "--name-only", "--no-renames", "--relative", "--format=",
        timeout=timeout,
    )  # fmt: skip
    return out.splitlines() if out else []


def _worktree_files(root: Path, timeout: float) -> list[str]:
    out = run_git(root, "status", "--porcelain", "-z", "--no-renames", "--", ".", timeout=timeout)
    if not out:
        return []
    prefix = run_git(root, "rev-parse", "--show-prefix", timeout=timeout) or ""
    prefix = prefix.strip()
    names = [item[3:] for item in out.split("\0") if len(item) > 3]
    return [name[len(prefix) :] if name.startswith(prefix) else name for name in names]


def changed_files_since(
    root: Path,
    since: date | str,
    limit: int = FILE_LIMIT,
    worktree: bool = True,
    timeout: float = TIMEOUT,
) -> list[str]:
    """Files changed since ``since``: uncommitted first (if ``worktree``), then by commit.

    Each path once, newest change first; deleted files are included (they
    changed). At most ``limit`` paths.
    """
    files = _worktree_files(root, timeout) if worktree else []
    files += _committed_files(root, since, timeout)
    unique = list(dict.fromkeys(name for name in files if name))
    return unique[: max(limit, 0)]
