"""``context_focus``: the code around a query and the memories that match it.

Invariant: one ``project_files`` listing serves every lookup; files are
existing project files (relative POSIX paths), each once, in order of
relevance: those the query names, then those the matched memories name
(their ``file`` field, then their text), then where a named symbol is
defined. Callers come from ``git grep`` (bounded to ``CALLER_SECONDS`` and
``CALLER_HITS``) with definitions left out: the uses of the symbols, and the
lines of other (non-test) files that import a file the query names (by its
folder and stem, ``module_names``). Never raises for the project's
state (no git, no files: empty lists).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path, PurePosixPath

from toon_memory.model.entry import Entry
from toon_memory.project.callers import Hit, grep_callers
from toon_memory.project.files import is_file, project_files, relative_path
from toon_memory.project.mentions import files_named, symbols_in
from toon_memory.project.testfiles import is_test_file, test_files_for

CALLER_SECONDS = 2.0
CALLER_HITS = 50
MAX_FILES = 12
#: Matched memories whose text is searched for symbols (the best ones).
SYMBOL_ENTRIES = 3
MAX_SYMBOLS = 12
#: Files the query names whose importers are looked for.
MAX_NAMED = 3


@dataclass(frozen=True)
class CodeAround:
    files: tuple[str, ...]
    symbols: tuple[str, ...]
    callers: tuple[Hit, ...]
    tests: dict[str, list[str]]


def _entry_file(root: Path, entry: Entry) -> str | None:
    path = entry.file.strip()
    head, sep, tail = path.rpartition(":")
    if sep and tail.replace("-", "").isdigit():
        path = head
    rel = relative_path(root, path) if path else None
    return rel if rel and is_file(root, rel) else None


def _add(found: list[str], names: Sequence[str | None]) -> None:
    for name in names:
        if name and name not in found:
            found.append(name)


def module_names(path: str) -> list[str]:
    """How an import names ``path``: its last folder and stem (``auth/jwt`` for
    ``src/auth/jwt.ts``; ``auth.jwt`` too for Python), else its stem alone."""
    pure = PurePosixPath(path)
    folder, stem = pure.parent.name, pure.stem
    if not folder:
        return [stem] if len(stem) > 2 else []
    names = [f"{folder}/{stem}"]
    if pure.suffix == ".py":
        names.append(f"{folder}.{stem}")
    return names


def _importers(root: Path, named: Sequence[str], hits: list[Hit]) -> list[Hit]:
    """``hits`` plus the lines of other tracked files that import a file the query names."""
    out = list(hits)
    for name in named[:MAX_NAMED]:
        wanted = module_names(name)
        if not wanted or is_test_file(name):
            continue
        found = grep_callers(root, wanted, timeout=CALLER_SECONDS, max_hits=CALLER_HITS)
        seen = {(h.file, h.line) for h in out}
        out.extend(
            replace(hit, defines=False)
            for hit in found
            if hit.file != name and not is_test_file(hit.file) and (hit.file, hit.line) not in seen
        )
    return out


def code_around(root: Path, query: str, entries: Sequence[Entry]) -> CodeAround:
    """Files, symbols, callers and tests for ``query`` and the memories that matched it."""
    listing = project_files(root)
    files: list[str] = []
    named = files_named(root, query, listing)
    _add(files, named)
    for entry in entries:
        _add(files, [_entry_file(root, entry)])
        _add(files, files_named(root, entry.content, listing))
    symbols: list[str] = []
    for text in (query, *(e.content for e in entries[:SYMBOL_ENTRIES])):
        _add(symbols, symbols_in(text))
    symbols = symbols[:MAX_SYMBOLS]
    hits = grep_callers(root, symbols, timeout=CALLER_SECONDS, max_hits=CALLER_HITS)
    hits = _importers(root, named, hits)
    _add(files, [hit.file for hit in hits if hit.defines and is_file(root, hit.file)])
    files = files[:MAX_FILES]
    tests: dict[str, list[str]] = {}
    for name in files:
        found = [] if is_test_file(name) else test_files_for(root, name, listing)
        if found:
            tests[name] = found
    callers = tuple(hit for hit in hits if not hit.defines)
    return CodeAround(tuple(files), tuple(symbols), callers, tests)
