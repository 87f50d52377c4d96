"""Fixture builders for the context-brief tests: real git repositories, real session files
written by separate processes, memories with known changes."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from tests.project.gitrepo import commit_files, init_repo

from toon_memory.memory.api import Memory
from toon_memory.model.heartbeat import clock_now, format_stamp

#: A child process that writes one session's heartbeat (and ends it when asked).
BEATER = textwrap.dedent(
    """
    import json, os, sys
    from datetime import datetime
    from pathlib import Path
    from toon_memory import Memory
    from toon_memory.store.heartbeats import FileHeartbeats

    folder, spec = Path(sys.argv[1]), json.loads(sys.argv[2])
    seen = datetime.fromisoformat(spec["seen"]) if spec.get("seen") else None
    # The store's own place: the folder's files, or (a team run) the database's table.
    team = os.environ.get("TOON_MEMORY_DATABASE_URL")
    beats = Memory(folder.parents[1]).store.sessions() if team else FileHeartbeats(folder)
    beats.beat(spec["id"], agent=spec.get("agent", ""), branch=spec.get("branch", "main"),
               files=spec.get("files", []), now=seen, pid=spec.get("pid"))
    if spec.get("ended"):
        beats.end(spec["id"], now=seen)
    """
)


def spawn_sessions(folder: Path, *specs: dict[str, Any]) -> None:
    """Each spec's heartbeat written by its own process, all at once.

    A spec: ``id``, ``agent``, ``branch``, ``files``, ``seen`` (an aware
    datetime; default now), ``ended``, ``pid`` (default: the child's own).
    """
    import json

    procs = []
    for spec in specs:
        data = {**spec, "seen": spec["seen"].isoformat() if spec.get("seen") else ""}
        procs.append(
            subprocess.Popen(
                [sys.executable, "-c", BEATER, str(folder), json.dumps(data)], env=dict(os.environ)
            )
        )
    assert [p.wait(timeout=60) for p in procs] == [0] * len(procs)


def ago(**delta: float) -> datetime:
    """Now (as the package's clock tells it) minus ``delta``."""
    return clock_now() - timedelta(**delta)


def git_date(moment: datetime) -> str:
    return moment.isoformat()


SOURCES = {
    "pyproject.toml": '[project]\nname = "orders"\nrequires-python = ">=3.11"\n'
    'dependencies = ["redis>=5"]\n',
    "uv.lock": "version = 1\n",
    "package.json": '{"name": "orders-web", "devDependencies": {"typescript": "^5.4.2"}}\n',
    "src/orders/cache.py": "def get_cached(key):\n    return key\n",
    "src/orders/service.py": "from orders.cache import get_cached\n\n\ndef load_order(oid):\n"
    "    return get_cached(oid)\n",
    "src/orders/api.py": "from orders.service import load_order\n\n\ndef handler(oid):\n"
    "    return load_order(oid)\n",
    "tests/test_service.py": "from orders.service import load_order\n\n\ndef test_load():\n"
    "    assert load_order(1) == 1\n",
    "tests/test_cache.py": "from orders.cache import get_cached\n\n\ndef test_get():\n"
    "    assert get_cached(2) == 2\n",
}


def orders_repo(root: Path) -> Path:
    """A real repository: two old commits, a session gap, two recent commits, work in progress.

    Old commits are 3 and 2 days old; recent ones 60 and 30 minutes old (by
    the package's clock); ``src/orders/api.py`` is modified, ``notes.md``
    untracked.
    """
    init_repo(root)
    commit_files(root, dict(SOURCES), "Initial orders service", git_date(ago(days=3)))
    commit_files(root, {"README.md": "# orders\n"}, "Add a README", git_date(ago(days=2)))
    commit_files(root, {"src/orders/cache.py": SOURCES["src/orders/cache.py"] + "# ttl\n"},
                 "Cache entries expire", git_date(ago(minutes=60)))  # fmt: skip
    commit_files(root, {"tests/test_cache.py": SOURCES["tests/test_cache.py"] + "# more\n"},
                 "Test cache expiry", git_date(ago(minutes=30)))  # fmt: skip
    (root / "src/orders/api.py").write_text(SOURCES["src/orders/api.py"] + "# wip\n")
    (root / "notes.md").write_text("scratch\n")
    return root


def old_stamp(days: int) -> str:
    return format_stamp(ago(days=days))


def seed_memory(memory: Memory) -> None:
    """Entries dated 5 days ago (imported), so only what a test changes afterwards is new."""
    stamp = old_stamp(5)
    rows = [
        {"category": "decision", "key": "cache-ttl", "content": "Cached orders expire after "
         "300 s; see get_cached in src/orders/cache.py", "file": "src/orders/cache.py"},
        {"category": "pattern", "key": "service-layer", "content": "Handlers call load_order() "
         "in the service layer, never the cache directly", "file": "src/orders/service.py"},
        {"category": "warning", "key": "no-raw-sql", "content": "Never build SQL with f-strings"},
        {"category": "bug", "key": "stale-orders", "content": "Orders were served stale after "
         "an update", "file": "src/orders/old_cache.py"},
        {"category": "knowledge", "key": "deploy-day", "content": "Deploys happen on Tuesdays"},
    ]  # fmt: skip
    for row in rows:
        row.update(created=stamp, updated=stamp, date=stamp[:10])
    report = memory.import_rows(rows)
    assert report.added == len(rows)
