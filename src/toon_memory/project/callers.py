"""Where symbols are used in a repository, found with ``git grep -n``.

Invariant: never fails and never blocks long: the search stops after
``timeout`` seconds or ``max_hits`` hits in total, whichever comes first,
and the git process is killed then. Outside a repository, without git, or
on any error, the answer is what was found so far (often nothing).
Matches are whole words of fixed strings (no regex from the caller reaches git).
"""

from __future__ import annotations

import os
import re
import signal
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from toon_memory.project.git import GIT_CONFIG, git_env

if TYPE_CHECKING:
    import subprocess

MAX_SYMBOLS = 20
MAX_TEXT = 200
_DEFINES = (
    r"(?:\b(?:def|class|function|func|fn|struct|enum|trait|interface|type|const|let|var|"
    r"impl|module|record)\s+(?:\([^)]*\)\s*)?{name}\b)|(?:^\s*{name}(?:\s*:[^=]*?)?\s+=(?!=))"
)


@dataclass(frozen=True)
class Hit:
    """One matching line: path relative to ``root``, 1-based line number, trimmed text.

    ``symbol`` is the first searched symbol on the line; ``defines`` is true
    when the line looks like that symbol's definition rather than a use.
    """

    file: str
    line: int
    text: str
    symbol: str = ""
    defines: bool = False


# Generated files whose matches are noise, not callers.
EXCLUDED = ("*.lock", "*-lock.json", "*-lock.yaml", "*.min.js", "*.map")


def _grep_args(symbols: list[str]) -> list[str]:
    args = ["grep", "-n", "-z", "-I", "-w", "-F", "--no-color"]
    for symbol in symbols:
        args += ["-e", symbol]
    return [*args, "--", ".", *(f":(exclude){pattern}" for pattern in EXCLUDED)]


def _word_in(symbol: str, text: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(symbol)}(?!\w)", text) is not None


def _hit(raw: str, symbols: list[str]) -> Hit | None:
    parts = raw.split("\0", 2)
    if len(parts) != 3 or not parts[1].isdigit():
        return None
    path, number, text = parts
    symbol = next((s for s in symbols if _word_in(s, text)), symbols[0])
    defines = re.search(_DEFINES.format(name=re.escape(symbol)), text) is not None
    return Hit(path, int(number), text.strip()[:MAX_TEXT], symbol, defines)


def _clean(symbols: list[str]) -> list[str]:
    kept = [s.strip() for s in symbols if s and s.strip() and "\n" not in s and "\0" not in s]
    return list(dict.fromkeys(kept))[:MAX_SYMBOLS]


def _read_hits(proc: subprocess.Popen[bytes], wanted: list[str], max_hits: int) -> list[Hit]:
    hits: list[Hit] = []
    if proc.stdout is None:
        return hits
    for raw in proc.stdout:
        hit = _hit(raw.decode("utf-8", "replace").rstrip("\n"), wanted)
        if hit is not None:
            hits.append(hit)
        if len(hits) >= max_hits:
            break
    return hits


def _stop(proc: subprocess.Popen[bytes]) -> None:
    """Kill the git process and anything it started (its own process group on POSIX)."""
    if proc.poll() is not None:
        return
    try:
        if hasattr(os, "killpg"):
            os.killpg(proc.pid, signal.SIGKILL)
        else:  # pragma: no cover - Windows
            proc.kill()
    except OSError:
        pass


def grep_callers(
    root: Path, symbols: list[str], timeout: float = 2.0, max_hits: int = 50
) -> list[Hit]:
    """Lines of tracked files under ``root`` that use any of ``symbols`` as a whole word.

    Paths are relative to ``root``; at most ``max_hits`` lines, in git's order.
    """
    import subprocess  # lazy: the CLI's cold start is budgeted
    import threading

    wanted = _clean(symbols)
    if not wanted or max_hits <= 0 or timeout <= 0:
        return []
    try:
        proc = subprocess.Popen(
            ["git", *GIT_CONFIG, *_grep_args(wanted)],
            cwd=root, env=git_env(), stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            start_new_session=hasattr(os, "killpg"),
        )  # fmt: skip
    except (OSError, ValueError):
        return []
    timer = threading.Timer(timeout, _stop, (proc,))
    timer.start()
    try:
        return _read_hits(proc, wanted, max_hits)
    finally:
        timer.cancel()
        _stop(proc)
        proc.wait()
        if proc.stdout is not None:
            proc.stdout.close()
