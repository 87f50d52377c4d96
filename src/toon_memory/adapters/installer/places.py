"""Where agent config files live: a project root, the home folder and the OS config folders.

Invariant: resolution reads only environment variables and the platform
name (``Places.current``); nothing here touches the filesystem. The home is
``HOME`` (``USERPROFILE`` on Windows), the XDG folder ``XDG_CONFIG_HOME`` or
``~/.config``, and the "app data" folder (where VS Code-family editors keep
their ``User`` folder) ``%APPDATA%`` on Windows, ``~/Library/Application
Support`` on macOS and the XDG folder elsewhere.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

BASES = ("project", "home", "xdg", "appdata")


@dataclass(frozen=True)
class Places:
    """The folders a ``Place`` is resolved against."""

    project: Path
    home: Path
    xdg: Path
    appdata: Path
    env: Mapping[str, str]
    windows: bool

    @classmethod
    def current(cls, project: Path, env: Mapping[str, str] | None = None,
                platform: str | None = None) -> Places:  # fmt: skip
        env = dict(os.environ if env is None else env)
        platform = platform or sys.platform
        windows = platform.startswith("win")
        home_var = (env.get("USERPROFILE") or env.get("HOME")) if windows else env.get("HOME")
        home = Path(home_var) if home_var else Path.home()
        xdg = Path(env.get("XDG_CONFIG_HOME") or home / ".config")
        if windows:
            appdata = Path(env.get("APPDATA") or home / "AppData" / "Roaming")
        elif platform == "darwin":
            appdata = home / "Library" / "Application Support"
        else:
            appdata = xdg
        return cls(project, home, xdg, appdata, env, windows)

    def base(self, name: str) -> Path:
        return {"project": self.project, "home": self.home, "xdg": self.xdg,
                "appdata": self.appdata}[name]  # fmt: skip


@dataclass(frozen=True)
class Place:
    """A file or folder: ``rel`` under a base folder (``project``, ``home``, ``xdg``, ``appdata``).

    ``env`` names a variable that, when set, replaces ``base/<env_part>``
    (e.g. ``CODEX_HOME`` for ``~/.codex``); ``windows`` is the Windows
    variant when the layout differs there.
    """

    base: str
    rel: str
    env: str = ""
    env_part: str = ""
    windows: Place | None = None

    def resolve(self, places: Places) -> Path:
        if places.windows and self.windows is not None:
            return self.windows.resolve(places)
        if self.env and places.env.get(self.env):
            rest = Path(self.rel).relative_to(self.env_part)
            return Path(places.env[self.env]) / rest
        return places.base(self.base) / self.rel

    def root(self, places: Places) -> Path:
        """The folder this place hangs under (cleanup never climbs above it)."""
        if places.windows and self.windows is not None:
            return self.windows.root(places)
        if self.env and places.env.get(self.env):
            return Path(places.env[self.env])
        return places.base(self.base)


def project(rel: str) -> Place:
    return Place("project", rel)


def home(rel: str, env: str = "", env_part: str = "", windows: Place | None = None) -> Place:
    return Place("home", rel, env, env_part, windows)


def xdg(rel: str, windows: Place | None = None) -> Place:
    return Place("xdg", rel, windows=windows)


def appdata(rel: str) -> Place:
    return Place("appdata", rel)
