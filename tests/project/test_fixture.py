"""The benchmark's fixture project is a real repository the project-facts layer reads right."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from benchmarks.context.fixture import END, FEATURE_COMMITS, TESTS, build_project
from tests.project.gitrepo import git

from toon_memory.project import testfiles
from toon_memory.project.callers import grep_callers
from toon_memory.project.history import changed_files_since, commits_since
from toon_memory.project.languages import Language, describe_project
from toon_memory.project.repository import git_facts


@pytest.fixture
def shop(tmp_path: Path) -> Path:
    return build_project(tmp_path / "shop", commits=40)


def test_history_has_the_commits_and_branches_asked_for(shop: Path) -> None:
    assert git(shop, "rev-list", "--count", "main").strip() == "40"
    assert git(shop, "rev-list", "--count", "main..feature/checkout").strip() == str(
        FEATURE_COMMITS
    )
    assert git(shop, "log", "-1", "--format=%aI", "main").strip() == "2026-07-15T12:00:00+00:00"


def test_facts_read_from_the_fixture(shop: Path) -> None:
    facts = git_facts(shop)
    assert (facts.branch, facts.uncommitted, facts.untracked) == ("main", 2, 1)
    project = describe_project(shop)
    assert project.name == "shop" and project.package_managers == ("uv", "pnpm")
    assert project.languages == (
        Language("Python", ">=3.11", "pyproject.toml"),
        Language("TypeScript", "^5.4.2", "package.json"),
        Language("Node.js", ">=20", "package.json"),
    )
    five_hours = END - timedelta(hours=5)
    assert [c.date for c in commits_since(shop, five_hours)] == [
        "2026-07-15T12:00:00+00:00", "2026-07-15T10:00:00+00:00", "2026-07-15T08:00:00+00:00",
    ]  # fmt: skip
    changed = changed_files_since(shop, five_hours)
    assert (
        changed[:3] == ["src/shop/payments.py", "web/src/cart.ts", "NOTES.md"] and len(changed) == 6
    )
    assert {h.file for h in grep_callers(shop, ["get_cached"])} >= {
        "src/shop/cache.py",
        "src/shop/orders.py",
    }


def test_every_fixture_test_file_is_found_from_its_source(shop: Path) -> None:
    sources = {
        "src/shop/cache.py", "src/shop/orders.py", "src/shop/payments.py", "src/shop/auth.py",
        "web/src/client.ts", "web/src/cart.ts",
    }  # fmt: skip
    found = {test for source in sources for test in testfiles.test_files_for(shop, source)}
    assert found == set(TESTS)


def test_another_branch_clean_and_a_custom_end(tmp_path: Path) -> None:
    end = datetime(2025, 1, 1, tzinfo=timezone.utc)
    root = build_project(tmp_path / "f", commits=3, end=end, dirty=False, branch="feature/checkout")
    facts = git_facts(root)
    assert (facts.branch, facts.uncommitted, facts.untracked) == ("feature/checkout", 0, 0)
    assert git(root, "log", "-1", "--format=%aI", "main").strip() == "2025-01-01T00:00:00+00:00"


def test_the_builder_refuses_a_folder_with_files(tmp_path: Path) -> None:
    (tmp_path / "busy").mkdir()
    (tmp_path / "busy" / "x").write_text("")
    with pytest.raises(ValueError, match="not empty"):
        build_project(tmp_path / "busy", commits=2)
    with pytest.raises(ValueError, match="at least 1"):
        build_project(tmp_path / "none", commits=0)
