"""files_named and symbols_in: what a text points at in the code."""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.project.gitrepo import commit_files, git, init_repo, write

from toon_memory.project.files import project_files, relative_path
from toon_memory.project.mentions import MAX_SYMBOLS, files_named, symbols_in

LAYOUT = {
    "src/app/cache.py": "x = 1\n",
    "src/app/store/cache.py": "x = 2\n",
    "src/app/server.py": "x = 3\n",
    "web/src/client.ts": "export {}\n",
    "README.md": "# r\n",
    **{f"pkg{i}/__init__.py": "" for i in range(4)},
}


@pytest.fixture
def proj(tmp_path: Path) -> Path:
    root = init_repo(tmp_path / "proj")
    commit_files(root, LAYOUT, "Layout")
    return root


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("see src/app/server.py", ["src/app/server.py"]),
        ("in `src/app/server.py:42`, line 42", ["src/app/server.py"]),
        ("(./src/app/server.py:10:5).", ["src/app/server.py"]),
        ('"web/src/client.ts", then README.md.', ["web/src/client.ts", "README.md"]),
        ("the client.ts and server.py files", ["web/src/client.ts", "src/app/server.py"]),
        ("store/cache.py leaks", ["src/app/store/cache.py"]),
        ("cache.py is ambiguous but fine", ["src/app/cache.py", "src/app/store/cache.py"]),
        ("__init__.py is everywhere", []),
        ("https://example.com/src/app/server.py and ../proj/README.md", []),
        ("src/app/missing.py and e.g. v1.2.3", []),
        ("src/app/server.py twice: src/app/server.py", ["src/app/server.py"]),
    ],
)
def test_mentioned_files(proj: Path, text: str, expected: list[str]) -> None:
    assert files_named(proj, text) == expected


def test_absolute_paths_inside_the_root_only(proj: Path, tmp_path: Path) -> None:
    write(tmp_path, {"outside.py": ""})
    text = f"{proj / 'src/app/server.py'} and {tmp_path / 'outside.py'}"
    assert files_named(proj, text) == ["src/app/server.py"]


def test_a_deleted_file_is_not_named_but_an_ignored_one_is(proj: Path) -> None:
    (proj / "src/app/server.py").unlink()
    write(proj, {".gitignore": "*.log\n", "build.log": "x"})
    assert files_named(proj, "src/app/server.py and build.log") == ["build.log"]


def test_outside_git_the_folder_is_walked(tmp_path: Path) -> None:
    write(tmp_path / "plain", {"lib/deep/util_fns.py": "", "node_modules/x/util_fns.py": ""})
    assert files_named(tmp_path / "plain", "util_fns.py breaks") == ["lib/deep/util_fns.py"]
    assert project_files(tmp_path / "plain") == ["lib/deep/util_fns.py"]


def test_the_file_list_holds_tracked_and_untracked_files(proj: Path) -> None:
    write(proj, {".gitignore": "*.log\n", "new.py": "", "x.log": ""})
    files = project_files(proj)
    assert {"new.py", ".gitignore", "src/app/server.py"} <= set(files) and "x.log" not in files
    assert project_files(proj, limit=2) == files[:2]


def test_relative_paths_never_leave_the_root(tmp_path: Path) -> None:
    assert relative_path(tmp_path, "./a/../b.py") == "b.py"
    assert relative_path(tmp_path, "a\\b.py") == "a/b.py"
    assert relative_path(tmp_path, str(tmp_path / "c" / "d.py")) == "c/d.py"
    for bad in ("../x.py", "a/../../x.py", "/etc/passwd", "", ".", "  "):
        assert relative_path(tmp_path, bad) is None


def test_a_given_file_list_is_used(proj: Path) -> None:
    assert files_named(proj, "server.py", files=[]) == []
    assert files_named(proj, "src/app/server.py", files=[]) == ["src/app/server.py"]


SEGMENT = st.from_regex(r"[a-z][a-z0-9_]{0,8}", fullmatch=True)
EXT = st.sampled_from(["py", "ts", "go", "rs", "md", "json"])
PATHS = st.builds(
    lambda dirs, name, ext: "/".join([*dirs, f"{name}.{ext}"]),
    st.lists(SEGMENT, max_size=3),
    SEGMENT,
    EXT,
)
WRAPS = st.sampled_from(["{}", "`{}`", "({})", '"{}"', "{}.", "{}:12", "{}:3:9,", "./{}", "'{}'"])
PROSE = st.text(st.characters(whitelist_categories=("L", "Zs")), max_size=30)


@settings(max_examples=40, deadline=None)
@given(st.lists(PATHS, min_size=1, max_size=5, unique=True), st.data())
def test_every_mentioned_existing_file_is_found(paths: list[str], data: st.DataObject) -> None:
    paths = [p for p in paths if not any(q.startswith(p + "/") for q in paths)]
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        write(root, dict.fromkeys(paths, ""))
        mentioned = data.draw(st.lists(st.sampled_from(paths), min_size=1, max_size=5))
        text = " ".join(data.draw(PROSE) + " " + data.draw(WRAPS).format(p) for p in mentioned)
        found = files_named(root, text)
        assert set(mentioned) <= set(found)
        assert all((root / name).is_file() for name in found)


@settings(max_examples=200)
@given(st.text(max_size=400))
def test_files_named_never_fails_and_only_names_files(text: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        root = write(Path(folder), {"a.py": "", "d/b.ts": ""})
        assert set(files_named(root, text)) <= {"a.py", "d/b.ts"}


# symbols_in ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("why does session_files miss renames?", ["session_files"]),
        ("CacheManager and getUser and HTTPServer", ["CacheManager", "getUser", "HTTPServer"]),
        ("call `recall` then `Memory.recall()`", ["recall", "Memory.recall"]),
        ("self.store.load_entries(x) fails", ["store.load_entries", "load_entries"]),
        ("cache.get(key) returns None; recall() too", ["cache.get", "recall"]),
        ("Engine::rank_entries is slow", ["Engine::rank_entries", "rank_entries"]),
        ("see src/toon_memory/store/cache.py:10 and cache.py", []),
        ("https://github.com/acme/fetch_user e.g. node.js, i.e. github.com", []),
        ("the __init__ and __repr__ dunders; URLs; IDs", []),
        ("The cache is slow. It is slow. `the`, `if`, `x`", []),
        ("MAX_TERMS = 200", ["MAX_TERMS"]),
        ("session_files, session_files and session_files", ["session_files"]),
    ],
)
def test_symbols_worth_grepping(text: str, expected: list[str]) -> None:
    assert symbols_in(text) == expected


def test_symbols_are_bounded() -> None:
    text = " ".join(f"name_{i}" for i in range(100))
    assert symbols_in(text) == [f"name_{i}" for i in range(MAX_SYMBOLS)]


SYMBOL_SHAPE = re.compile(r"^[A-Za-z_$][\w$]*(?:(?:\.|::)[A-Za-z_$][\w$]*)*$")


@settings(max_examples=300)
@given(st.text(max_size=500))
def test_symbols_are_identifiers_from_the_text(text: str) -> None:
    found = symbols_in(text)
    assert len(found) <= MAX_SYMBOLS and len(found) == len(set(found))
    assert all(SYMBOL_SHAPE.match(s) and s in text for s in found)


SNAKE = st.from_regex(r"[a-z]{2,6}_[a-z]{2,6}", fullmatch=True)
SEPARATORS = st.sampled_from([" ", ", ", " (", ") ", "\n", ": ", " `", "` ", ". "])


@given(
    st.lists(
        st.sampled_from(["fix", "the", "bug", "in", "when", "cache", "is", "cold"]), max_size=8
    ),
    SNAKE,
    SEPARATORS,
    SEPARATORS,
)
def test_a_snake_case_name_in_prose_is_found(
    words: list[str], name: str, before: str, after: str
) -> None:
    text = " ".join(words) + before + name + after + " ".join(reversed(words))
    assert name in symbols_in(text)


def test_symbols_and_files_of_a_real_repository(proj: Path) -> None:
    git(proj, "mv", "src/app/server.py", "src/app/http_server.py")
    text = "http_server.py calls start_server() from `src/app/http_server.py`"
    assert files_named(proj, text) == ["src/app/http_server.py"]
    assert symbols_in(text) == ["start_server"]
