"""commits_since and changed_files_since on a real repository with dated commits."""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tests.project.gitrepo import commit_files, git, init_repo

from toon_memory.project.history import changed_files_since, commits_since, since_arg


@pytest.fixture
def dated(tmp_path: Path) -> Path:
    """Four commits: January, early on 1 March, June, and a merge-free feature branch tip."""
    root = init_repo(tmp_path / "dated")
    commit_files(root, {"a.py": "a = 1\n", "old.py": "o = 1\n"}, "January", "2026-01-05T12:00:00")
    commit_files(root, {"b.py": "b = 1\n"}, "Early March", "2026-03-01T00:30:00")
    (root / "old.py").unlink()
    commit_files(
        root, {"a.py": "a = 2\n", "web/c.ts": "export const c = 1\n"}, "June", "2026-06-01T12:00:00"
    )
    return root


def subjects(root: Path, since: date | str, limit: int = 50) -> list[str]:
    return [c.subject for c in commits_since(root, since, limit)]


def test_commits_since_a_day_start_at_its_midnight(dated: Path) -> None:
    assert subjects(dated, date(2026, 3, 1)) == ["June", "Early March"]
    assert subjects(dated, "2026-03-01") == ["June", "Early March"]
    assert subjects(dated, date(2026, 3, 2)) == ["June"]


def test_commits_since_a_timestamp_or_a_relative_date(dated: Path) -> None:
    assert subjects(dated, datetime(2026, 3, 1, 1, 0)) == ["June"]
    assert subjects(dated, "2026-01-01T00:00:00") == ["June", "Early March", "January"]
    commit_files(dated, {"now.py": "n = 1\n"}, "Just now")  # dated by the clock
    assert subjects(dated, "1 hour ago") == ["Just now"]


def test_commits_carry_hash_date_and_author(dated: Path) -> None:
    newest = commits_since(dated, "2026-05-01")[0]
    assert newest.hash == git(dated, "rev-parse", "HEAD").strip()
    assert newest.date.startswith("2026-06-01T12:00:00")
    assert newest.author == "Ada Lovelace"


def test_commits_since_is_bounded_by_the_limit(dated: Path) -> None:
    assert subjects(dated, "2026-01-01", limit=2) == ["June", "Early March"]
    assert subjects(dated, "2026-01-01", limit=0) == []


def test_commits_follow_the_checked_out_branch(dated: Path) -> None:
    git(dated, "checkout", "-q", "-b", "feature", "HEAD~1")
    commit_files(dated, {"f.py": "f = 1\n"}, "Feature work", "2026-07-01T12:00:00")
    assert subjects(dated, "2026-05-01") == ["Feature work"]


def test_changed_files_since_list_each_path_once_newest_first(dated: Path) -> None:
    assert changed_files_since(dated, "2026-01-01", worktree=False) == [
        "a.py", "old.py", "web/c.ts", "b.py",
    ]  # fmt: skip
    assert changed_files_since(dated, date(2026, 3, 2), worktree=False) == [
        "a.py", "old.py", "web/c.ts",
    ]  # fmt: skip


def test_changed_files_put_the_work_tree_first(dated: Path) -> None:
    (dated / "b.py").write_text("b = 2\n")
    (dated / "scratch.md").write_text("notes\n")
    changed = changed_files_since(dated, date(2026, 3, 2))
    assert changed == ["b.py", "scratch.md", "a.py", "old.py", "web/c.ts"]
    assert changed_files_since(dated, date(2026, 3, 2), limit=1) == ["b.py"]


def test_changed_files_are_relative_to_a_subfolder_root(dated: Path) -> None:
    (dated / "web" / "d.ts").write_text("export const d = 1\n")
    assert changed_files_since(dated / "web", "2026-01-01") == ["d.ts", "c.ts"]


def test_no_changes_since_a_future_day(dated: Path) -> None:
    for day in ("2999-01-01", date(2999, 1, 1), datetime(2150, 1, 1), "2098-01-01"):
        assert changed_files_since(dated, day) == []
        assert commits_since(dated, day) == []


def test_outside_a_repository_nothing_changed(tmp_path: Path) -> None:
    (tmp_path / "plain").mkdir()
    assert commits_since(tmp_path / "plain", "2020-01-01") == []
    assert changed_files_since(tmp_path / "plain", "2020-01-01") == []


def test_an_option_like_since_reaches_git_as_a_value(dated: Path, tmp_path: Path) -> None:
    out = tmp_path / "written-by-git"
    commits_since(dated, f"--output={out}")
    changed_files_since(dated, f"--output={out}")
    assert not out.exists()


@given(st.dates(min_value=date(1971, 1, 1), max_value=date(2099, 12, 31)))
def test_a_day_becomes_its_midnight(day: date) -> None:
    assert since_arg(day) == since_arg(day.isoformat()) == f"{day.isoformat()}T00:00:00"


def test_an_aware_timestamp_is_compared_in_its_own_zone(tmp_path: Path) -> None:
    from datetime import timezone

    root = init_repo(tmp_path / "zoned")
    commit_files(root, {"z.py": "z = 1\n"}, "At ten UTC", "2026-06-01T12:00:00+02:00")
    before = datetime(2026, 6, 1, 9, 59, 59, 999_999, tzinfo=timezone.utc)
    after = datetime(2026, 6, 1, 10, 0, 1, 500_000, tzinfo=timezone.utc)
    assert subjects(root, before) == ["At ten UTC"]
    assert subjects(root, after) == []
