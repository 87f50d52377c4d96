"""grep_callers: whole-word fixed-string search with git grep, bounded in hits and time."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from tests.project.gitrepo import commit_files, init_repo, write

from toon_memory.project.callers import Hit, grep_callers


@pytest.fixture
def code(tmp_path: Path) -> Path:
    root = init_repo(tmp_path / "code")
    commit_files(
        root,
        {
            "src/cache.py": "def get_cached(key):\n    return key\n\nclass CacheLoader:\n    pass\n",
            "src/app.py": "from cache import get_cached\n\nvalue = get_cached(1)\nloader = CacheLoader()\n",
            "web/api.ts": "export function fetchUser(id: string) {}\nconst u = fetchUser('1');\n",
            "docs/notes.md": "get_cached_all is another thing; a.b and axb differ\n",
        },
        "Code",
    )
    return root


def test_finds_each_use_with_its_line(code: Path) -> None:
    hits = grep_callers(code, ["get_cached"])
    assert [(h.file, h.line) for h in hits] == [
        ("src/app.py", 1),
        ("src/app.py", 3),
        ("src/cache.py", 1),
    ]
    assert hits[1] == Hit("src/app.py", 3, "value = get_cached(1)", "get_cached", False)


def test_marks_definitions(code: Path) -> None:
    hits = {
        (h.file, h.line): h for h in grep_callers(code, ["get_cached", "CacheLoader", "fetchUser"])
    }
    assert hits[("src/cache.py", 1)].defines
    assert hits[("src/cache.py", 4)].defines and hits[("src/cache.py", 4)].symbol == "CacheLoader"
    assert hits[("web/api.ts", 1)].defines and not hits[("web/api.ts", 2)].defines
    assert not hits[("src/app.py", 4)].defines


def test_matches_whole_words_of_fixed_strings(code: Path) -> None:
    assert all(h.file != "docs/notes.md" for h in grep_callers(code, ["get_cached"]))
    assert [h.file for h in grep_callers(code, ["a.b"])] == ["docs/notes.md"]
    assert grep_callers(code, ["a.c"]) == []  # '.' is not a regex wildcard
    assert grep_callers(code, ["get_cached("]) == []  # nor is '(' a regex group


def test_several_symbols_in_one_search(code: Path) -> None:
    files = {h.file for h in grep_callers(code, ["fetchUser", "CacheLoader"])}
    assert files == {"web/api.ts", "src/cache.py", "src/app.py"}


def test_stops_at_max_hits_in_total(tmp_path: Path) -> None:
    root = init_repo(tmp_path / "many")
    commit_files(root, {f"m{i}.py": "use_me()\n" * 30 for i in range(4)}, "Many uses")
    assert len(grep_callers(root, ["use_me"])) == 50
    assert len(grep_callers(root, ["use_me"], max_hits=7)) == 7
    assert grep_callers(root, ["use_me"], max_hits=0) == []


def test_lock_files_and_minified_bundles_are_not_callers(code: Path) -> None:
    commit_files(code, {
        "package-lock.json": '{"fetchUser": 1}\n', "web/dist/app.min.js": "fetchUser()\n",
        "deps/uv.lock": "fetchUser\n",
    }, "Generated")  # fmt: skip
    assert {h.file for h in grep_callers(code, ["fetchUser"])} == {"web/api.ts"}


def test_only_tracked_files_are_searched(code: Path) -> None:
    write(code, {"scratch.py": "get_cached(2)\n"})
    assert "scratch.py" not in {h.file for h in grep_callers(code, ["get_cached"])}


def test_paths_are_relative_to_a_subfolder_root(code: Path) -> None:
    assert [h.file for h in grep_callers(code / "src", ["CacheLoader"])] == ["app.py", "cache.py"]


def test_long_lines_are_trimmed(tmp_path: Path) -> None:
    root = init_repo(tmp_path / "long")
    commit_files(root, {"a.py": "x = call_me(" + "1, " * 500 + ")\n"}, "Long")
    [hit] = grep_callers(root, ["call_me"])
    assert hit.text.startswith("x = call_me(") and len(hit.text) == 200


def test_nothing_to_search_for(code: Path) -> None:
    assert grep_callers(code, []) == []
    assert grep_callers(code, ["", "  ", "two\nlines"]) == []
    assert grep_callers(code, ["get_cached"], timeout=0) == []


def test_outside_a_repository_or_without_git(
    tmp_path: Path, code: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(tmp_path / "plain", {"a.py": "get_cached()\n"})
    assert grep_callers(tmp_path / "plain", ["get_cached"]) == []
    assert grep_callers(tmp_path / "missing", ["get_cached"]) == []
    monkeypatch.setenv("PATH", str(tmp_path / "plain"))
    assert grep_callers(code, ["get_cached"]) == []


def test_a_hanging_git_is_stopped_with_what_it_found(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A git that prints one hit and then hangs (in a child process) is killed at the timeout."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake = bin_dir / "git"
    hit = "printf '{}\\0003\\000slow_symbol()\\n'\n"
    fake.write_text("#!/bin/sh\n" + hit.format("a.py") + "sleep 15\n" + hit.format("late.py"))
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    (tmp_path / "w").mkdir()
    assert grep_callers(tmp_path / "w", ["slow_symbol"], timeout=0.5) == [
        Hit("a.py", 3, "slow_symbol()", "slow_symbol", False)
    ]
