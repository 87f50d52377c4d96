"""How toon-memory was installed, and the command that upgrades it the same way.

Invariant: detection reads only the interpreter's prefix and the package's
``direct_url.json``; it never runs anything. pipx and ``uv tool`` keep each
tool in its own venv under a folder named after them; an editable or
local-folder install is upgraded from its source, so we only say how (``-e``
only for an editable one); an install from a wheel or sdist file upgrades
from the index like a plain pip install.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Upgrade:
    """``method`` (pipx, uv, pip, source); ``argv`` to run, or None with ``advice``."""

    method: str
    argv: tuple[str, ...] | None
    advice: str = ""


def _direct_url() -> dict[str, Any]:
    """The install's ``direct_url.json`` (PEP 610), ``{}`` when installed from an index."""
    try:
        raw = metadata.distribution("toon-memory").read_text("direct_url.json")
    except metadata.PackageNotFoundError:
        return {}
    data = json.loads(raw) if raw else {}
    return data if isinstance(data, dict) else {}


def _from_source(direct: dict[str, Any], python: str) -> Upgrade | None:
    """An install from a local folder or file: editable (``-e``) only when it was."""
    url = str(direct.get("url", ""))
    if not url.startswith("file://"):
        return None
    where = url.removeprefix("file://")
    info = direct.get("dir_info")
    if not isinstance(info, dict):  # a wheel or sdist file: upgrade from the index
        return None
    if info.get("editable") is True:
        return Upgrade("source", None, f"installed from {where}: update that folder (git pull) "
                       f"and reinstall with `pip install -e {where}`")  # fmt: skip
    return Upgrade("source", None, f"installed from {where}: update that folder (git pull) "
                   f"and reinstall with `{python} -m pip install --upgrade {where}`")  # fmt: skip


def detect_upgrade(prefix: str | None = None, python: str | None = None,
                   source: str | None = "auto",
                   direct: dict[str, Any] | None = None) -> Upgrade:  # fmt: skip
    """The upgrade for the running install (``prefix``/``source``/``direct`` (the parsed
    ``direct_url.json``) overridable for tests; ``source``: an editable checkout)."""
    prefix_path = Path(prefix or sys.prefix).as_posix()
    interpreter = python or sys.executable
    if source == "auto":
        found = _from_source(_direct_url() if direct is None else direct, interpreter)
    elif source:
        found = _from_source({"url": f"file://{source}", "dir_info": {"editable": True}}, "")
    else:
        found = None
    if found is not None:
        return found
    if "/pipx/venvs/" in prefix_path:
        return Upgrade("pipx", ("pipx", "upgrade", "toon-memory"))
    if "/uv/tools/" in prefix_path:
        return Upgrade("uv", ("uv", "tool", "upgrade", "toon-memory"))
    return Upgrade("pip", (interpreter, "-m", "pip", "install", "--upgrade", "toon-memory"))
