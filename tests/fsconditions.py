"""Real file-system conditions for tests: a read-only folder, an immutable folder, a full disk.

Each helper makes the condition for real (a read-only bind mount, ``chattr +i``,
``chmod a-w``, a tiny tmpfs) and skips the test, with the reason, where the
condition cannot be made here: root ignores permission bits, so ``chmod`` only
works for a normal user, while mounts and ``chattr`` need root (and a file
system that supports them).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


def _run(*args: str) -> bool:
    if shutil.which(args[0]) is None:
        return False
    return subprocess.run(args, capture_output=True, check=False).returncode == 0


@contextlib.contextmanager
def read_only_mount(folder: Path) -> Iterator[None]:
    """``folder`` bind-mounted over itself, read-only (EROFS on every write)."""
    if not IS_ROOT or not _run("mount", "--bind", str(folder), str(folder)):
        pytest.skip("a read-only bind mount needs root and mount(8) permission")
    try:
        if not _run("mount", "-o", "remount,ro,bind", str(folder), str(folder)):
            pytest.skip("cannot remount the bind mount read-only here")
        yield
    finally:
        _run("umount", str(folder))


@contextlib.contextmanager
def immutable(folder: Path) -> Iterator[None]:
    """``folder`` and every file in it ``chattr +i`` (EPERM on every write, even for root)."""
    if not IS_ROOT or not _run("chattr", "-R", "+i", str(folder)):
        pytest.skip("chattr +i needs root and a file system that supports it (ext4, xfs, btrfs)")
    try:
        yield
    finally:
        _run("chattr", "-R", "-i", str(folder))


@contextlib.contextmanager
def not_writable(folder: Path) -> Iterator[None]:
    """``chmod a-w`` on ``folder`` and its files (EACCES; only binds a non-root user)."""
    if IS_ROOT:
        pytest.skip("root ignores permission bits; the mount and chattr variants cover root")
    paths = [folder, *folder.rglob("*")]
    modes = {path: path.stat().st_mode for path in paths}
    for path in paths:
        path.chmod(modes[path] & ~0o222)
    try:
        yield
    finally:
        for path in reversed(paths):
            path.chmod(modes[path])


READ_ONLY_KINDS = {"mount": read_only_mount, "chattr": immutable, "chmod": not_writable}


@contextlib.contextmanager
def tiny_disk(folder: Path, size_kb: int = 512) -> Iterator[Path]:
    """A tmpfs of ``size_kb`` mounted on ``folder`` (ENOSPC once it is full)."""
    folder.mkdir(parents=True, exist_ok=True)
    if not IS_ROOT or not _run(
        "mount", "-t", "tmpfs", "-o", f"size={size_kb}k", "tmpfs", str(folder)
    ):
        pytest.skip("mounting a small tmpfs needs root and mount(8) permission")
    try:
        yield folder
    finally:
        _run("umount", str(folder))


def fill(folder: Path) -> Path:
    """Write a file in ``folder`` until its file system is full; return the file."""
    filler = folder / "filler.bin"
    with filler.open("wb", buffering=0) as handle, contextlib.suppress(OSError):
        while True:
            handle.write(b"\0" * 4096)
    return filler
