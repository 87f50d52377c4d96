"""The test files of a source file, by the naming conventions of each language.

Invariant: never raises and never writes; answers only files that exist,
as POSIX paths relative to the root, closest to the source first, bounded.

Conventions: Python ``test_x.py``/``x_test.py`` beside the file or in a
``tests/`` tree; JS/TS ``x.test.ts``/``x.spec.js`` beside it, in
``__tests__/`` or a ``test(s)/`` tree; Go ``x_test.go`` beside it; Rust
``tests/x.rs``, ``x/tests.rs`` and the file itself when it holds a
``#[cfg(test)]`` module; Java/Kotlin ``XTest``/``XTests``/``TestX``/``XIT``
under ``src/test/...``. A test tree counts only when it sits in a folder
that contains the source, and its sub-folders mirror the source's folders
(or are neutral: ``unit``, ``integration``...).
"""

from __future__ import annotations

import posixpath
import re
from pathlib import Path

from toon_memory.project.files import is_file, project_files, relative_path
from toon_memory.project.readers import read_text

MAX_TESTS = 10
TEST_DIRS = frozenset({"tests", "test", "__tests__", "spec", "specs", "testing"})
NEUTRAL_DIRS = frozenset(
    {"unit", "units", "integration", "integ", "e2e", "functional", "acceptance", "smoke", "java",
     "kotlin", "python", "js", "ts", "src", "lib"}
)  # fmt: skip
JS_EXTS = ("js", "jsx", "ts", "tsx", "mjs", "cjs", "mts", "cts")
_TEST_NAME = re.compile(
    r"^(?:test_.+\.py|.+_test\.(?:py|go)|.+\.(?:test|spec)\.[mc]?[jt]sx?"
    r"|(?:.+Tests?|Test[A-Z].*|.+IT)\.(?:java|kt))$"
)
_RUST_TESTS = re.compile(r"#\[cfg\(\s*test\s*\)\]")


def is_test_file(rel: str) -> bool:
    """Whether a path names a test file by its own name or by sitting in ``__tests__``."""
    parts = rel.split("/")
    if _TEST_NAME.match(parts[-1]) or "__tests__" in parts[:-1]:
        return True
    return parts[-1].endswith(".rs") and "tests" in parts[:-1]


def _names(stem: str, ext: str) -> tuple[set[str], set[str]]:
    """(names that mark a test anywhere, plain names that count only inside a test tree)."""
    if ext == "py":
        return {f"test_{stem}.py", f"{stem}_test.py"}, set()
    if ext in JS_EXTS:
        tagged = {f"{stem}.{tag}.{e}" for tag in ("test", "spec") for e in JS_EXTS}
        return tagged, {f"{stem}.{e}" for e in JS_EXTS}
    if ext == "go":
        return {f"{stem}_test.go"}, set()
    if ext == "rs":
        return set(), {f"{stem}.rs"}
    if ext in ("java", "kt"):
        forms = (f"{stem}Test", f"{stem}Tests", f"Test{stem}", f"{stem}IT")
        return {f"{form}.{ext}" for form in forms}, set()
    return set(), set()


def _in_mirror(test_dirs: list[str], source_dirs: list[str]) -> bool:
    """Whether a test folder is a test tree mirroring the source's folders."""
    at = next((i for i, part in enumerate(test_dirs) if part in TEST_DIRS), None)
    if at is None or source_dirs[:at] != test_dirs[:at]:
        return False
    return all(part in source_dirs or part in NEUTRAL_DIRS for part in test_dirs[at + 1 :])


def _placed(test: str, source: str, plain: bool, ext: str) -> bool:
    test_dirs, source_dirs = test.split("/")[:-1], source.split("/")[:-1]
    if test_dirs == source_dirs:
        return not plain
    if ext == "go":
        return False
    if test_dirs == [*source_dirs, "__tests__"]:
        return True
    return _in_mirror(test_dirs, source_dirs)


def _shared(a: str, b: str) -> int:
    count = 0
    for x, y in zip(a.split("/"), b.split("/"), strict=False):
        if x != y:
            break
        count += 1
    return count


def _rust_extras(root: Path, rel: str, stem: str) -> list[str]:
    extras = [rel] if _RUST_TESTS.search(read_text(root / rel) or "") else []
    module = posixpath.join(posixpath.dirname(rel), stem, "tests.rs")
    return extras + (
        [module] if stem not in ("mod", "lib", "main") and is_file(root, module) else []
    )


def test_files_for(root: Path, path: str | Path, files: list[str] | None = None) -> list[str]:
    """Existing test files of the source file ``path``, closest first, at most ``MAX_TESTS``.

    A test file given as ``path`` is its own test. ``files`` is the project's
    file list, read with ``project_files`` when not given.
    """
    rel = relative_path(root, path)
    if rel is None:
        return []
    if is_test_file(rel):
        return [rel] if is_file(root, rel) else []
    stem, _, ext = rel.rsplit("/", 1)[-1].rpartition(".")
    tagged, plain = _names(stem, ext)
    if not tagged and not plain:
        return []
    listing = project_files(root) if files is None else files
    found = [
        name
        for name in listing
        if name != rel
        and ((base := name.rsplit("/", 1)[-1]) in tagged or base in plain)
        and _placed(name, rel, base in plain, ext)
    ]
    found.sort(key=lambda name: (-_shared(name, rel), name))
    if ext == "rs":
        found = _rust_extras(root, rel, stem) + found
    return [name for name in dict.fromkeys(found) if is_file(root, name)][:MAX_TESTS]


test_files_for.__test__ = False  # type: ignore[attr-defined]  # not a test, for pytest
