"""What a piece of text points at in the code: file paths and symbols worth grepping.

Invariant: pure reading. ``symbols_in`` is a function of the text alone;
``files_named`` only reads the project's file list and checks existence.
Neither raises on any input; both answer in order of first mention, each
item once, bounded (``MAX_FILES`` / ``MAX_SYMBOLS``).
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

from toon_memory.project.files import is_file, project_files, relative_path

MAX_FILES = 20
MAX_SYMBOLS = 20
MAX_TEXT = 100_000
MAX_MENTIONS = 200  # path-like tokens looked up per text
# A bare name that matches more files than this (``__init__.py``) says nothing.
MAX_AMBIGUOUS = 3
_PATH = re.compile(r"(?<![\w/.@+~-])(/?(?:\.{1,2}/)*[\w@+~-][\w@.+~-]*(?:/[\w@.+~-]+)*/?)")
_EXT = re.compile(r"\.[A-Za-z][A-Za-z0-9]{0,9}$")


def _path_mentions(text: str) -> list[str]:
    found = []
    for match in _PATH.finditer(text[:MAX_TEXT]):
        token = match.group(1).rstrip(".-~").rstrip("/")
        if "/" in token or _EXT.search(token):
            found.append(token)
    return list(dict.fromkeys(found))[:MAX_MENTIONS]


def _by_basename(files: list[str]) -> dict[str, list[str]]:
    index: dict[str, list[str]] = defaultdict(list)
    for name in files:
        index[name.rsplit("/", 1)[-1]].append(name)
    return index


def _resolve(root: Path, token: str, files: set[str], index: dict[str, list[str]]) -> list[str]:
    rel = relative_path(root, token)
    if rel is None:
        return []
    if rel in files or is_file(root, rel):
        return [rel]
    tail = "/" + rel
    matches = [name for name in index.get(rel.rsplit("/", 1)[-1], []) if name.endswith(tail)]
    return matches if len(matches) <= MAX_AMBIGUOUS else []


def files_named(root: Path, text: str, files: list[str] | None = None) -> list[str]:
    """Project files that ``text`` mentions, as paths relative to ``root``.

    A mention is a path (``src/cache.py``, ``./src/cache.py``, an absolute
    path under ``root``), possibly with a line suffix (``cache.py:10``), or
    the tail of one (``cache.py`` for ``src/cache.py`` when at most
    ``MAX_AMBIGUOUS`` files end so). ``files`` is the project's file list,
    read with ``project_files`` when not given.
    """
    mentions = _path_mentions(text)
    if not mentions:
        return []
    listing = project_files(root) if files is None else files
    known, index = set(listing), _by_basename(listing)
    found: list[str] = []
    for token in mentions:
        for name in _resolve(root, token, known, index):
            if name not in found and is_file(root, name):
                found.append(name)
        if len(found) >= MAX_FILES:
            return found[:MAX_FILES]
    return found


# Symbols -------------------------------------------------------------------

_IDENT = r"[A-Za-z_$][\w$]*"
_DOTTED = rf"{_IDENT}(?:(?:\.|::){_IDENT})*"
_BACKTICK = re.compile(rf"`\s*({_DOTTED})\s*(?:\([^`]*\))?\s*`")
_CALL = re.compile(rf"(?<![\w$.:])({_DOTTED})\((?:\)|(?=[\w\"'\[{{]))")
_WORD = re.compile(rf"(?<![\w$.:/-])({_DOTTED})(?![\w$/]|-\w)")
_URL_OR_PATH = re.compile(r"\S*(?:://|/)\S*|[\w.-]+\.[A-Za-z][A-Za-z0-9]{0,9}:\d+")
_FILE_EXTS = frozenset(
    {
        "py", "pyi", "ts", "tsx", "js", "jsx", "mjs", "cjs", "mts", "cts", "go", "rs", "java", "kt",
        "kts", "md", "rst", "json", "toml", "yaml", "yml", "txt", "cfg", "ini", "lock", "sh", "rb",
        "c", "h", "cc", "cpp", "hpp", "cs", "php", "swift", "html", "css", "scss", "sql", "xml",
        "csv", "log", "env"
    }
)  # fmt: skip
_STOP = frozenset(
    {
        "self", "this", "cls", "super", "true", "false", "none", "null", "nil", "undefined", "and",
        "or", "not", "the", "for", "if", "else", "elif", "return", "def", "class", "function",
        "import", "from", "with", "while", "let", "var", "const", "new", "try", "catch", "async",
        "await", "print", "len", "str", "int", "float", "bool", "dict", "list", "set", "tuple",
        "type", "object"
    }
)  # fmt: skip
_SELF = ("self.", "this.", "cls.")


def _distinct(name: str) -> bool:
    """A bare identifier is distinctive when it has an inner ``_`` or a camel hump."""
    core = name.strip("_$")
    if len(core) < 3 or core.lower() in _STOP or name.startswith("__"):
        return False
    if "_" in core and any(c.isalpha() for c in core):
        return True
    return re.search(r"[a-z][A-Z]|[A-Z]{2}[a-z]{2}", core) is not None


def _worth(symbol: str, strong: bool) -> bool:
    """Whether ``symbol`` is worth grepping; ``strong`` mentions (backticks, calls) need less."""
    parts = re.split(r"\.|::", symbol)
    if len(parts) > 1:
        if parts[-1].lower() in _FILE_EXTS or any(len(p) < 2 for p in parts):
            return False
        return strong or any(_distinct(p) or p[:1].isupper() for p in parts)
    if strong:
        return len(symbol) >= 3 and symbol.lower() not in _STOP and not symbol.startswith("__")
    return _distinct(symbol)


def _candidates(text: str) -> list[tuple[int, str, bool]]:
    found = [(m.start(1), m.group(1), True) for m in _BACKTICK.finditer(text)]
    found += [(m.start(1), m.group(1), True) for m in _CALL.finditer(text)]
    found += [(m.start(1), m.group(1), False) for m in _WORD.finditer(text)]
    return sorted(found)


def _forms(symbol: str) -> list[str]:
    """The symbol without a ``self.``/``this.`` receiver, and its last part when distinctive."""
    while symbol.startswith(_SELF):
        symbol = symbol.split(".", 1)[1]
    last = re.split(r"\.|::", symbol)[-1]
    return [symbol, last] if last != symbol and _distinct(last) else [symbol]


def symbols_in(text: str) -> list[str]:
    """Identifiers in ``text`` worth grepping, in order of first mention, at most ``MAX_SYMBOLS``.

    Kept: names in backticks, called names (``recall()``, ``cache.get(key)``),
    and in plain text the distinctive ones: snake_case with an inner
    underscore, camelCase/PascalCase with a hump, dotted names with one.
    File paths, URLs, dunders and keywords are left out.
    """
    cleaned = _URL_OR_PATH.sub(lambda m: " " * len(m.group(0)), text[:MAX_TEXT])
    found: list[str] = []
    for _, symbol, strong in _candidates(cleaned):
        if not _worth(symbol, strong):
            continue
        for form in _forms(symbol):
            if form not in found:
                found.append(form)
        if len(found) >= MAX_SYMBOLS:
            return found[:MAX_SYMBOLS]
    return found
