"""Security tests: a passphrase in the environment, helpers to snapshot and grep folders."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

PASSPHRASE = "correct horse battery staple"


@pytest.fixture(autouse=True)
def passphrase(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    monkeypatch.setenv("TOON_MEMORY_KEY", PASSPHRASE)
    yield PASSPHRASE


def snapshot(*folders: Path) -> dict[str, bytes]:
    """Every file under ``folders`` (path -> bytes), the lock file left out."""
    found: dict[str, bytes] = {}
    for folder in folders:
        for path in sorted(folder.rglob("*")):
            if path.is_file() and path.name != ".lock":
                found[str(path)] = path.read_bytes()
    return found


def grep(word: str, *folders: Path) -> list[str]:
    """Files under ``folders`` holding ``word`` (the real ``grep -r``, binary files included)."""
    done = subprocess.run(["grep", "-r", "-l", "-a", "-F", word, *map(str, folders)],
                          capture_output=True, text=True, check=False)  # fmt: skip
    assert done.returncode in (0, 1), done.stderr
    return done.stdout.split()
