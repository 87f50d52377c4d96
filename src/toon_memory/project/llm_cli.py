"""Run a local LLM command-line tool (``claude`` or ``llm``) on a prompt, in bounded time.

Invariant: this module makes no network call itself and never raises for a
missing, failing, slow or silent tool: the answer is then None. The prompt
goes through stdin (never argv, which other users can read); the tool runs
in its own process group, and on timeout the whole group is killed, so no
child it started outlives the call.
"""

from __future__ import annotations

import os
import shutil
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import subprocess

#: Tools tried in order, with the arguments that make each read a prompt from stdin.
CANDIDATES: tuple[tuple[str, tuple[str, ...]], ...] = (("claude", ("-p",)), ("llm", ()))
DEFAULT_TIMEOUT = 60.0
MAX_OUTPUT_CHARS = 4_000


def find_llm_cli(path: str | None = None) -> list[str] | None:
    """The command line of the first tool on ``path`` (default: ``$PATH``), or None."""
    for name, args in CANDIDATES:
        found = shutil.which(name, path=path)
        if found:
            return [found, *args]
    return None


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    try:
        if sys.platform == "win32":  # pragma: no cover - not tested here
            proc.kill()
        else:
            import signal

            os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def run_llm_cli(
    prompt: str, *, command: list[str] | None = None, timeout: float = DEFAULT_TIMEOUT
) -> str | None:
    """The tool's answer to ``prompt`` (stripped, at most ``MAX_OUTPUT_CHARS``), or None.

    ``command`` defaults to ``find_llm_cli()``. None when there is no tool,
    it exits non-zero, it prints nothing, or it runs past ``timeout`` seconds.
    """
    import subprocess

    argv = command if command is not None else find_llm_cli()
    if not argv:
        return None
    try:
        proc = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            start_new_session=sys.platform != "win32",
        )  # fmt: skip
    except OSError:
        return None
    try:
        out, _ = proc.communicate(prompt.encode("utf-8"), timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill_group(proc)
        proc.communicate()
        return None
    finally:
        if proc.poll() is None:  # pragma: no cover - only on an unexpected error
            _kill_group(proc)
            proc.wait()
    text = out.decode("utf-8", errors="replace").strip()
    if proc.returncode != 0 or not text:
        return None
    return text[:MAX_OUTPUT_CHARS]
