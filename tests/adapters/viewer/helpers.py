"""Shared helpers for the viewer tests: a fixture memory, a live viewer process, a browser.

The fixture memory has two equally short paths between two entries (so the
path finder's tie-break is exercised), a typed ``supersedes`` link, a
forgotten entry (not drawn), and entries whose key and content are markup
that must never run.
"""

from __future__ import annotations

import os
import re
import select
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.conftest import ROOT

from toon_memory.memory.api import Memory

ARTIFACTS = Path(os.environ.get("TOON_VIEWER_ARTIFACTS", ROOT / "tests" / "artifacts" / "viewer"))
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]  # fmt: skip
XSS_CONTENT = (
    '<img src=x onerror="window.__pwned=1"> </script><script>window.__pwned=2</script> '
    "<!-- <svg onload=window.__pwned=5> [[auth-decision]]"
)
XSS_KEYS = ("<img/src=x/onerror=window.__pwned=3>", "<script>window.__pwned=4</script>")


def chromium_path() -> str | None:
    """The system chromium, if there is one."""
    for name in ("/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


def build_fixture(project: Path) -> Memory:
    """A small memory with links, [[mentions]], a typed link, a forgotten entry and XSS bait."""
    memory = Memory(project)
    add = memory.remember
    add("bug", "cache-bug", "Race in the cache layer when two writers flush together.")
    add("knowledge", "session-store", "Sessions live in redis with a 24h TTL.", links=["cache-bug"])
    add("pattern", "token-refresh", "Refresh tokens rotate daily.", links=["cache-bug"])
    add("decision", "auth-decision", "Use JWT for auth; see [[token-refresh]].",
        links=["session-store"])  # fmt: skip
    add("warning", "old-deploy", "Deploys on Friday need a second reviewer.")
    add("warning", "deploy-freeze", "No deploys on Friday at all.", links=["supersedes:old-deploy"])
    add("knowledge", "lonely-note", "A note with no links at all.")
    add("knowledge", "gone-note", "This one is forgotten and must not be drawn.")
    memory.forget("gone-note")
    add("warning", "xss-content", XSS_CONTENT)
    for key in XSS_KEYS:
        add("bug", key, f"A key that is markup: {key}")
    return memory


def active_ids(memory: Memory) -> list[str]:
    return [entry.id for entry in memory.entries()]


@dataclass
class LiveViewer:
    """A ``toon-memory viewer`` process and its URL."""

    process: subprocess.Popen[str]
    url: str
    first_lines: list[str]


def _read_line(process: subprocess.Popen[str], deadline: float) -> str:
    assert process.stdout is not None
    while time.monotonic() < deadline:
        ready, _, _ = select.select([process.stdout], [], [], 0.2)
        if ready:
            return process.stdout.readline()
        if process.poll() is not None:
            break
    raise AssertionError(f"the viewer printed nothing (exit {process.poll()})")


def start_viewer(
    project: Path, *extra: str, stdin: Any = subprocess.PIPE, **popen: Any
) -> LiveViewer:
    """Start the real CLI (``--no-open``; ``popen``: more of ``Popen``'s arguments) and wait
    for the URL it prints."""
    env = dict(os.environ, TOON_MEMORY_PROJECT=str(project), PYTHONUNBUFFERED="1")
    process = subprocess.Popen(
        [sys.executable, "-m", "toon_memory", "viewer", "--no-open", *extra],
        stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
        **popen,
    )  # fmt: skip
    deadline = time.monotonic() + 60
    lines: list[str] = []
    while True:
        line = _read_line(process, deadline)
        lines.append(line)
        found = re.search(r"http://127\.0\.0\.1:\d+/", line)
        if found:
            return LiveViewer(process, found.group(), lines)


def stop_viewer(viewer: LiveViewer) -> int:
    """Close its input (its "terminal"), then wait; kill only if it does not stop."""
    process = viewer.process
    if process.stdin is not None and not process.stdin.closed:
        process.stdin.close()
    try:
        return process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=10)
        raise AssertionError("the viewer did not stop when its input closed") from None
    finally:
        for stream in (process.stdout, process.stderr):
            if stream is not None:
                stream.close()


@contextmanager
def running_viewer(project: Path, *extra: str) -> Iterator[LiveViewer]:
    viewer = start_viewer(project, *extra)
    try:
        yield viewer
    finally:
        stop_viewer(viewer)
