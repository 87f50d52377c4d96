"""Shared helpers for the installer tests: a fake home and project, snapshots, the CLI."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

from toon_memory.adapters.installer.command import ServerCommand
from toon_memory.adapters.installer.places import Places

CLI_SCRIPT = "import sys; sys.argv[0] = 'toon-memory'; from toon_memory.adapters.cli.main import main; main()\n"
INSTALLER_SCRIPT = (
    "import sys; sys.argv[1:] = []; from toon_memory.adapters.cli.main import main; main()\n"
)


#: The folder of the installed ``toon-memory`` script: first on PATH, as for a user.
BIN = str(Path(sys.executable).parent)


def fake_env(base: Path) -> dict[str, str]:
    """Environment variables that point every config folder under ``base``, with the
    installed ``toon-memory`` on PATH."""
    home = base / "home"
    home.mkdir(exist_ok=True)
    return {
        "PATH": BIN + os.pathsep + os.environ.get("PATH", ""),
        "HOME": str(home),
        "USERPROFILE": str(home),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "APPDATA": str(home / "AppData" / "Roaming"),
        "TOON_MEMORY_HOME": str(home),
    }


def places_for(project: Path, env: dict[str, str]) -> Places:
    return Places.current(project, {"PATH": os.environ.get("PATH", ""), **env}, platform="linux")


def command() -> ServerCommand:
    return ServerCommand.installed()


def snapshot(*roots: Path) -> dict[str, bytes]:
    """Every file under ``roots`` -> its bytes (the memory folder left out)."""
    found: dict[str, bytes] = {}
    for root in roots:
        for path in sorted(root.rglob("*")):
            if path.is_file() and ".toon-memory" not in path.parts:
                found[str(path)] = path.read_bytes()
    return found


def digest(snap: dict[str, bytes]) -> dict[str, str]:
    return {k: hashlib.sha256(v).hexdigest() for k, v in snap.items()}


def run_cli(
    *args: str, cwd: Path, env: dict[str, str], stdin: str = ""
) -> subprocess.CompletedProcess[str]:
    full = {**os.environ, **env}
    full.pop("TOON_MEMORY_PROJECT", None)
    return subprocess.run([sys.executable, "-c", CLI_SCRIPT, *args], cwd=cwd, env=full, input=stdin,
                          capture_output=True, text=True, timeout=120, check=False)  # fmt: skip


def users_claude_settings(proj: Path) -> tuple[Path, str]:
    """A project's ``.claude/settings.json`` with a user's own Stop hook and model: path, text."""
    settings = proj / ".claude/settings.json"
    settings.parent.mkdir()
    original = ('{\n  "hooks": {\n    "Stop": [\n      {"hooks": [{"type": "command", '
                '"command": "say done"}]}\n    ]\n  },\n  "model": "opus"\n}\n')  # fmt: skip
    settings.write_text(original)
    return settings, original
