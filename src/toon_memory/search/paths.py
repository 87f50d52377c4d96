"""File paths as entries, options and git write them, made comparable.

Invariant: ``normalise_path`` is pure, total and idempotent, and every place
that compares a path (the ``path_scope`` filter and bonus, the session bias,
evidence) compares normalised paths, so ``src/a.py``, ``./src/a.py``,
``src\\a.py`` and ``src/a.py:10-20`` are one file. Normalising: surrounding
blanks go, backslashes become ``/``, a line suffix (``:10``, ``:10-20``,
``:10:5``) goes, then ``.``/``..`` segments, doubled and trailing slashes are
resolved as ``posixpath.normpath`` does (a leading ``./`` goes; ``""`` stays
``""``), repeated until nothing changes. Case and a leading ``/`` are kept.
``named_paths`` reads the paths a query names, normalised the same way.
"""

from __future__ import annotations

import posixpath
import re
from fnmatch import fnmatchcase
from functools import lru_cache

_LINES = re.compile(r"(?::\d+(?:-\d+)?)+$")
_GLOB = frozenset("*?[")


@lru_cache(maxsize=65536)
def normalise_path(path: str) -> str:
    """``" ./src\\a.py:10-20 "`` -> ``"src/a.py"`` (see the module docstring)."""
    text = path.replace("\\", "/")
    while True:  # to a fixed point: "a:1/.:2" -> "a:1/." -> "a:1" -> "a"
        done = _step(text)
        if done == text:
            return done
        text = done


def _step(text: str) -> str:
    text = _LINES.sub("", text.strip())
    if not text:
        return ""
    text = posixpath.normpath(text)
    if text.startswith("//"):  # normpath keeps a leading double slash (POSIX-reserved)
        text = "/" + text.lstrip("/")
    return "" if text == "." else text


#: A word naming a file: it has a slash, or ends in a dot and a short extension that starts with a
#: letter ("src/a.py", "dhl.py:10", "docs\\runbook.md"; not "3.12"). Words are cut at blanks
#: and quotes first, and each is matched whole: linear in the text, whatever it holds.
_WORD = re.compile(r"[^\s\"'`()<>,;]+")
_NAMED = re.compile(r"[\w.\-/\\]*(?:[/\\][\w.\-]*|\.[A-Za-z][A-Za-z0-9]{0,5})(?::\d+(?:-\d+)?)*")
#: Queries are short; a longer text is read up to here (a path further on is not looked for).
NAMED_SCAN_CHARS = 2_000


def named_paths(text: str) -> frozenset[str]:
    """The normalised paths a query names (``"before editing src/a.py:10"`` -> ``{"src/a.py"}``)."""
    found: set[str] = set()
    for word in _WORD.findall(text[:NAMED_SCAN_CHARS]):
        word = word.rstrip(".:!?")
        if ("/" in word or "\\" in word or "." in word) and _NAMED.fullmatch(word):
            path = normalise_path(word)
            if path.strip("./"):
                found.add(path)
    return frozenset(found)


def names_file(file: str, named: frozenset[str]) -> bool:
    """Is ``file`` one of ``named`` (normalised), or one ends with the other at a ``/``?"""
    path = normalise_path(file)
    if not path or not named:
        return False
    return any(path == n or path.endswith("/" + n) or n.endswith("/" + path) for n in named)


def path_matches(path: str, pattern: str) -> bool:
    """Does ``path`` fall under ``pattern`` (a glob, a directory or a file), both normalised?"""
    path = normalise_path(path)
    pattern = normalise_path(pattern)
    if not path or not pattern:
        return False
    if any(c in _GLOB for c in pattern):
        return fnmatchcase(path, pattern) or fnmatchcase(path, pattern + "/*")
    return path == pattern or path.startswith(pattern + "/")
