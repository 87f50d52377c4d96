"""Shared fixtures: every test gets its own home, project and fixed day."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

#: The checkout, the test fixtures beside this file, and the workspace's shared/ folder.
ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures"
SHARED = ROOT.parent / "shared"

# ``HYPOTHESIS_PROFILE=deep pytest …`` runs every property test with default settings 20 times
# longer (a bug hunt; CI uses the default). Tests that set their own example count keep it.
# No profile has a deadline: a deadline is a timed assert, and a busy machine fails it by chance.
settings.register_profile("untimed", deadline=None)
settings.register_profile("deep", max_examples=2_000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "untimed"))
TODAY = "2026-07-15"


@pytest.fixture(autouse=True)
def isolated_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("TOON_MEMORY_HOME", str(home))
    monkeypatch.setenv("TOON_MEMORY_TODAY", TODAY)
    monkeypatch.delenv("TOON_MEMORY_PROJECT", raising=False)
    monkeypatch.delenv("TOON_MEMORY_SERVER", raising=False)  # the local memory, not a team's
    # No test reaches GitHub: the Gist client talks to a dead loopback port unless a test
    # starts its own fake server; no token from the machine running the tests is used.
    monkeypatch.setenv("TOON_MEMORY_GITHUB_API", "http://127.0.0.1:9")
    monkeypatch.delenv("GITHUB_TOKEN", raising=False)
    yield


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    (root / ".git").mkdir(parents=True)
    return root


def run_cli(*args: str, project: Path | None = None, check: bool = False,
            env: dict[str, str] | None = None, timeout: float = 60) -> subprocess.CompletedProcess[str]:  # fmt: skip
    """Run the real ``toon-memory`` CLI in a subprocess.

    Output is read as UTF-8 with ``surrogateescape``: the CLI prints a file name that is
    not UTF-8 with its own bytes (``cli.context.printable``), as other Unix tools do.
    """
    full_env = dict(os.environ)
    if project is not None:
        full_env["TOON_MEMORY_PROJECT"] = str(project)
    full_env.update(env or {})
    done = subprocess.run(
        [sys.executable, "-m", "toon_memory", *args], stdin=subprocess.DEVNULL,
        capture_output=True, text=True, encoding="utf-8", errors="surrogateescape", env=full_env,
        timeout=timeout, check=False,
    )  # fmt: skip
    if check and done.returncode != 0:
        raise AssertionError(f"exit {done.returncode}\nstdout:{done.stdout}\nstderr:{done.stderr}")
    return done


def no_entry_cap(project: Path) -> None:
    """Turn the 100-entry auto-archive cap off in ``project``'s config.json (for tests that
    need a memory past the eager-compaction size, hundreds of entries, to stay that big)."""
    folder = project / ".toon-memory" / "memory"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "config.json").write_text('{"autoArchive": {"maxEntries": 0}}\n', encoding="utf-8")


@pytest.fixture(scope="session")
def postgres() -> Iterator[object]:
    """A throw-away PostgreSQL cluster for this test session (``tests/postgres.py``)."""
    from tests.postgres import start_cluster

    cluster = start_cluster()
    if isinstance(cluster, str):
        pytest.skip(cluster)
    yield cluster
    from toon_memory.store.team.database import close_all

    close_all()
    cluster.stop()


_DATABASES = iter(range(1, 1_000_000))


@pytest.fixture
def database(postgres: object) -> str:
    """The URL of a new, empty database of the session's cluster (``team init`` not run)."""
    import psycopg
    from tests.postgres import Cluster

    assert isinstance(postgres, Cluster)
    name = f"t{os.getpid()}_{next(_DATABASES)}"
    with psycopg.connect(postgres.url(), autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return postgres.url(name)


@pytest.fixture
def team_database(database: str) -> Iterator[str]:
    """The URL of a new database that ``team init`` has migrated."""
    from toon_memory.store.team.database import close_pool, run
    from toon_memory.store.team.schema import migrate

    run(database, migrate)
    yield database
    close_pool(database)


#: The stores every ``Memory`` API test runs over: the files, and a team database.
STORES = ("file", "team")


def open_memory(request: pytest.FixtureRequest, project: Path) -> Any:
    """``Memory(project)`` over the store the test is parametrised with (``STORES``).

    For ``team`` the whole test runs over a new team database: ``TOON_MEMORY_DATABASE_URL``
    is set, so every ``Memory`` it opens, and every CLI or server it starts, uses it.
    """
    from toon_memory import Memory

    if getattr(request, "param", "file") == "team":
        url = request.getfixturevalue("team_database")
        request.getfixturevalue("monkeypatch").setenv("TOON_MEMORY_DATABASE_URL", url)
    return Memory(project)
