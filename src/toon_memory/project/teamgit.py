"""Team sync through git: the merge driver's registration, the pre-commit hook, staging.

Invariant: set-up only adds (a ``.gitattributes`` line, two ``git config``
keys of this clone, ``backups/`` and ``watch.log`` in the memory folder's
``.gitignore``, a pre-commit hook) and is idempotent; a pre-commit hook that
was there before is kept and run first (chained), never lost. Nothing here
commits. Every git call has a timeout; a failure is a ``SyncError`` naming
the command.
"""

from __future__ import annotations

import os
import shlex
import stat
import sys
from dataclasses import dataclass
from pathlib import Path

from toon_memory.errors import SyncError
from toon_memory.system.atomic import write_atomic

DRIVER = "toon-memory"
TIMEOUT = 30.0
HOOK_MARK = "# toon-memory pre-commit hook"
CHAINED = "pre-commit.before-toon-memory"
#: The CLI command the hook runs (``hook pre-commit`` once the lead aliases it).
HOOK_COMMAND = "hook pre-commit"
MEMORY_IGNORES = ("backups/", "watch.log")


@dataclass(frozen=True)
class GitSetup:
    """What ``git-setup`` did (each flag: True when this call changed it)."""

    top: Path
    attributes: Path
    pattern: str
    attributes_added: bool
    driver: str
    hook: Path
    hook_written: bool
    chained: Path | None
    ignores_added: tuple[str, ...]


def run_git(cwd: Path, *args: str) -> str:
    """``git args`` in ``cwd``: its stdout; ``SyncError`` naming the command on failure."""
    import subprocess

    try:
        done = subprocess.run(
            ["git", *args], cwd=cwd, capture_output=True, text=True, timeout=TIMEOUT,
            stdin=subprocess.DEVNULL, check=False,
            env={**os.environ, "GIT_TERMINAL_PROMPT": "0"},
        )  # fmt: skip
    except (OSError, subprocess.SubprocessError) as exc:
        raise SyncError(f"`git {' '.join(args)}` could not run: {exc}") from None
    if done.returncode != 0:
        problem = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "failed"
        raise SyncError(f"`git {' '.join(args)}` failed: {problem}")
    return done.stdout


def git_top(root: Path) -> Path:
    """The work tree's top folder; ``SyncError`` when ``root`` is not in a git repository."""
    try:
        return Path(run_git(root, "rev-parse", "--show-toplevel").strip()).resolve()
    except SyncError:
        raise SyncError(f"{root} is not in a git repository (run `git init` first)") from None


def toon_memory_command() -> str:
    """A shell command that runs this toon-memory, by absolute path."""
    script = Path(sys.argv[0]) if sys.argv and sys.argv[0] else None
    if script is not None and script.name == "toon-memory" and script.exists():
        return shlex.quote(str(script.resolve()))
    beside = Path(sys.executable).parent / "toon-memory"
    if beside.exists():
        return shlex.quote(str(beside))
    return f"{shlex.quote(sys.executable)} -m toon_memory"


def setup_team_sync(root: Path, memory_folder: Path, command: str) -> GitSetup:
    """Register the merge driver and install the pre-commit hook for the memory of ``root``."""
    top = git_top(root)
    rel = Path(os.path.relpath(memory_folder.resolve(), top)).as_posix()
    pattern = f"{rel}/*.toon"
    attributes = top / ".gitattributes"
    added = _ensure_lines(attributes, [f"{pattern} merge={DRIVER}"])
    driver = f"{command} merge-driver %O %A %B"
    run_git(top, "config", f"merge.{DRIVER}.name", "toon-memory: merge memories entry by entry")
    run_git(top, "config", f"merge.{DRIVER}.driver", driver)
    ignores = _ensure_lines(memory_folder / ".gitignore", list(MEMORY_IGNORES))
    project = Path(os.path.relpath(root.resolve(), top)).as_posix()
    hook, written, chained = _install_hook(top, command, project)
    return GitSetup(top, attributes, pattern, bool(added), driver, hook, written, chained,
                    tuple(ignores))  # fmt: skip


def _ensure_lines(path: Path, lines: list[str]) -> list[str]:
    """Append the lines ``path`` lacks (atomically); return them."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        text = ""
    have = {line.strip() for line in text.splitlines()}
    missing = [line for line in lines if line not in have]
    if missing:
        sep = "" if not text or text.endswith("\n") else "\n"
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, (text + sep + "\n".join(missing) + "\n").encode("utf-8"))
    return missing


def hook_script(command: str, project: str) -> str:
    """The pre-commit hook: run the hook that was there before, then ours."""
    where = '"$(git rev-parse --show-toplevel)"' + (
        "" if project == "." else f"/{shlex.quote(project)}"
    )
    return (
        "#!/bin/sh\n"
        f"{HOOK_MARK} (installed by `toon-memory git-setup`).\n"
        "# Folds the memory journal into data.toon and stages data.toon and archive.toon.\n"
        f'chained="$(dirname "$0")/{CHAINED}"\n'
        'if [ -x "$chained" ]; then\n'
        '  "$chained" "$@" || exit $?\n'
        "fi\n"
        f"exec {command} --project {where} {HOOK_COMMAND}\n"
    )


def _install_hook(top: Path, command: str, project: str) -> tuple[Path, bool, Path | None]:
    hooks = Path(run_git(top, "rev-parse", "--git-path", "hooks").strip())
    hooks = hooks if hooks.is_absolute() else (top / hooks)
    hooks.mkdir(parents=True, exist_ok=True)
    hook, chained = hooks / "pre-commit", hooks / CHAINED
    script = hook_script(command, project)
    existing = _read(hook)
    if existing == script:
        return hook, False, chained if chained.exists() else None
    if existing is not None and HOOK_MARK not in existing:
        if chained.exists() or chained.is_symlink():
            raise SyncError(f"{hook} and {chained} both exist: merge them into one hook by hand, "
                            "then run `toon-memory git-setup` again")  # fmt: skip
        os.replace(hook, chained)
        _make_executable(chained)
    write_atomic(hook, script.encode("utf-8"))
    _make_executable(hook)
    return hook, True, chained if chained.exists() else None


def _read(path: Path) -> str | None:
    if not (path.exists() or path.is_symlink()):
        return None
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def _make_executable(path: Path) -> None:
    try:
        mode = path.stat().st_mode
    except OSError:
        return
    path.chmod(mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)


def stage(top: Path, paths: list[Path]) -> list[Path]:
    """``git add`` the existing ``paths``; return them."""
    present = [p for p in paths if p.exists()]
    if present:
        run_git(top, "add", "--", *(os.path.relpath(p.resolve(), top) for p in present))
    return present
