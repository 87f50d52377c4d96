"""Running the real ``git`` binary, and what the current session touched (for recall).

Invariant: never fails and never blocks long. Every call runs ``git`` with a
timeout; outside a repository, without git, or on any error, the answer is
empty (``None``, an empty set, ``""``). Nothing here writes:
``GIT_OPTIONAL_LOCKS=0`` keeps ``git status`` from refreshing the index of a
repository another process may be using. Kept small: recall imports it.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Iterator
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


_HEADS = "ref: refs/heads/"
#: Where this branch left the default branch: the first of these that resolves.
BASES = ("origin/HEAD", "main", "master")


def session_files(root: Path) -> frozenset[str]:
    """Files changed in the work tree or on this branch since it left the default branch.

    ``git status`` and the ``merge-base`` look-ups run at once (threads, each
    its own git process); on the default branch itself, when that is certain
    from ``.git`` alone (no ``origin/HEAD``), there is no branch diff to ask for.
    """
    if not (root / ".git").exists():
        return frozenset()
    bases = () if on_default_branch(root) else BASES
    found = _parallel(
        [("status", "--porcelain"), *(("merge-base", "HEAD", base) for base in bases)], root
    )
    files = {_status_path(line) for line in found[0] if len(line) > 3}
    merge_base = next((lines[0] for lines in found[1:] if lines), "")
    if merge_base:
        files.update(_git(root, "diff", "--name-only", merge_base, "HEAD"))
    return frozenset(name for name in files if name)


def start_session_files(root: Path) -> SessionFilesLater:
    """``session_files(root)`` begun in a thread: git works while the caller loads its index
    or ranks; the answer is waited for where it is first read."""
    return SessionFilesLater(root)


class SessionFilesLater(Collection[str]):
    """``session_files`` of a root, asked in a thread at once; reading it (``wait``, or as
    a collection) waits for the answer, and raises what the thread raised."""

    def __init__(self, root: Path) -> None:
        import threading

        self._found: list[frozenset[str]] = []
        self._failed: list[BaseException] = []
        self._thread = threading.Thread(target=self._run, args=(root,), daemon=True)
        self._thread.start()

    def _run(self, root: Path) -> None:
        try:
            self._found.append(session_files(root))
        except BaseException as exc:  # handed to the reader, raised in its thread
            self._failed.append(exc)

    def wait(self) -> frozenset[str]:
        self._thread.join()
        if self._failed:
            raise self._failed[0]
        return self._found[0]

    def __iter__(self) -> Iterator[str]:
        return iter(self.wait())

    def __len__(self) -> int:
        return len(self.wait())

    def __contains__(self, name: object) -> bool:
        return name in self.wait()


def _parallel(calls: list[tuple[str, ...]], root: Path) -> list[list[str]]:
    """``_git(root, *call)`` for every call, run at once; results in the calls' order."""
    import threading

    found: list[list[str]] = [[] for _ in calls]

    def run(i: int) -> None:
        found[i] = _git(root, *calls[i])

    threads = [threading.Thread(target=run, args=(i,), daemon=True) for i in range(1, len(calls))]
    for thread in threads:
        thread.start()
    run(0)
    for thread in threads:
        thread.join()
    return found


def on_default_branch(root: Path) -> bool:
    """Whether ``HEAD`` is the branch ``BASES`` would pick, read from ``.git`` alone.

    True only when certain: ``.git`` is a folder with loose or packed refs (no
    reftable), there is no ``origin/HEAD`` (whose branch may lag behind), and
    the checked-out branch is the first of ``main``/``master`` that exists,
    with no tag or other ref of the same name that git would prefer.
    """
    git_dir = root / ".git"
    if not git_dir.is_dir() or (git_dir / "reftable").exists():
        return False
    try:
        head = (git_dir / "HEAD").read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return False
    refs = _refs(git_dir)
    if refs is None or "refs/remotes/origin/HEAD" in refs or not head.startswith(_HEADS):
        return False
    for name in BASES[1:]:
        if any(ref in refs for ref in _shadows(name)):
            return False  # git would read the name as another ref first (or as a remote)
        if f"refs/heads/{name}" in refs:
            return head == _HEADS + name
    return False


def _shadows(name: str) -> tuple[str, ...]:
    """Refs that git resolves ``name`` to before (or instead of) the local branch."""
    return (
        f"refs/{name}",
        f"refs/tags/{name}",
        f"refs/remotes/{name}",
        f"refs/remotes/{name}/HEAD",
    )


def _refs(git_dir: Path) -> set[str] | None:
    """The refs of ``BASES`` that exist (loose or packed); None when unreadable."""
    wanted = {"refs/remotes/origin/HEAD"}
    for name in BASES[1:]:
        wanted |= {f"refs/heads/{name}", *_shadows(name)}
    try:
        found = {ref for ref in wanted if (git_dir / ref).is_file()}
        packed = git_dir / "packed-refs"
        if packed.exists():
            for line in packed.read_text(encoding="utf-8", errors="replace").splitlines():
                parts = line.split(" ", 1)
                if len(parts) == 2 and parts[1].strip() in wanted:
                    found.add(parts[1].strip())
    except OSError:
        return None
    return found


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
