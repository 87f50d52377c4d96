"""How toon-memory was installed, and the command that upgrades it the same way.

Invariant: detection reads only the interpreter's prefix and the package's
``direct_url.json``; it never runs anything. pipx and ``uv tool`` keep each
tool in its own venv under a folder named after them; an editable or
local-folder install is upgraded from its source, so we only say how.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path


@dataclass(frozen=True)
class Upgrade:
    """``method`` (pipx, uv, pip, source); ``argv`` to run, or None with ``advice``."""

    method: str
    argv: tuple[str, ...] | None
    advice: str = ""


def _source_dir() -> str | None:
    try:
        raw = metadata.distribution("toon-memory").read_text("direct_url.json")
    except metadata.PackageNotFoundError:
        return None
    if not raw:
        return None
    data = json.loads(raw)
    url = str(data.get("url", ""))
    if url.startswith("file://"):
        return url.removeprefix("file://")
    return None


def detect_upgrade(prefix: str | None = None, python: str | None = None,
                   source: str | None = "auto") -> Upgrade:  # fmt: skip
    """The upgrade for the running install (``prefix``/``source`` overridable for tests)."""
    prefix_path = Path(prefix or sys.prefix).as_posix()
    folder = _source_dir() if source == "auto" else source
    if folder:
        return Upgrade("source", None, f"installed from {folder}: update that folder (git pull) "
                       f"and reinstall with `pip install -e {folder}`")  # fmt: skip
    if "/pipx/venvs/" in prefix_path:
        return Upgrade("pipx", ("pipx", "upgrade", "toon-memory"))
    if "/uv/tools/" in prefix_path:
        return Upgrade("uv", ("uv", "tool", "upgrade", "toon-memory"))
    interpreter = python or sys.executable
    return Upgrade("pip", (interpreter, "-m", "pip", "install", "--upgrade", "toon-memory"))
