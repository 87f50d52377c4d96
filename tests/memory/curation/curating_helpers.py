"""Shared by the curation tool tests: a realistic memory, file bytes, fake LLM CLIs on PATH."""

from __future__ import annotations

import os
import shutil
import stat
import sys
from pathlib import Path

from toon_memory import Memory
from toon_memory.store.paths import MemoryPaths

#: (category, key, content, extra remember arguments) of a small, realistic memory.
REALISTIC: list[tuple[str, str, str, dict[str, object]]] = [
    ("decision", "react-setup", "The dashboard uses React 18 with ReactDOM.render in src/main.tsx",
     {"tags": "react;frontend"}),
    ("decision", "react-upgrade",
     "The dashboard moved to React 19: createRoot in src/main.tsx", {"tags": "react"}),
    ("pattern", "redis-pool", "Redis connection pool must stay at ten connections for the worker",
     {"tags": "redis", "file": "src/worker/pool.py"}),
    ("pattern", "redis-pool-size", "The redis connection pool must stay at ten connections",
     {"tags": "perf", "links": "deploy-main"}),
    ("knowledge", "deploy-main", "Deploys run from the main branch only, never from a tag",
     {"tags": "deploy"}),
    ("bug", "deploy-from-tag", "Deploys run from the main branch only, never from a tag",
     {"tags": "ci"}),
    ("knowledge", "api-port", "The API listens on port 8080 behind nginx", {"tags": "api"}),
    ("knowledge", "api-port-dev", "In development the API listens on port 3000 without nginx",
     {"tags": "api"}),
    ("knowledge", "vague-note", "stuff", {"origin": "inferred"}),
    ("warning", "no-keys-command",
     "Never run the redis KEYS command in production: it blocks the server",
     {"tags": "redis", "importance": "critical"}),
]  # fmt: skip


def seed(memory: Memory) -> None:
    for category, key, content, extra in REALISTIC:
        memory.remember(category, key, content, **extra)  # type: ignore[arg-type]


def store_bytes(project: Path) -> tuple[bytes, bytes]:
    """data.toon and the journal, byte for byte (empty when absent)."""
    paths = MemoryPaths.for_project(project)
    return tuple(p.read_bytes() if p.exists() else b"" for p in (paths.data, paths.journal))  # type: ignore[return-value]


def fake_llm(bin_dir: Path, name: str, body: str) -> Path:
    """An executable ``name`` in ``bin_dir``: a Python script (``body``) run by this interpreter."""
    bin_dir.mkdir(parents=True, exist_ok=True)
    path = bin_dir / name
    path.write_text(f"#!{sys.executable}\nimport os, sys, time\n{body}")
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return path


def echo_summary(summary: str, seen: Path | None = None) -> str:
    """A fake CLI body that reads the prompt (saving it to ``seen``) and prints ``summary``."""
    save = f"open({str(seen)!r}, 'w').write(prompt)\n" if seen else ""
    return f"prompt = sys.stdin.read()\n{save}print({summary!r})\n"


def sleeper(pid_file: Path) -> str:
    """A fake CLI body that records its pid and sleeps far past any timeout."""
    return f"open({str(pid_file)!r}, 'w').write(str(os.getpid()))\ntime.sleep(300)\n"


def path_without_llms(*first: Path) -> str:
    """``first`` then the current PATH minus any folder holding a real ``claude`` or ``llm``."""
    real = [str(Path(found).parent) for n in ("claude", "llm") if (found := shutil.which(n))]
    kept = [d for d in os.environ.get("PATH", "").split(os.pathsep) if d and d not in real]
    return os.pathsep.join([*map(str, first), *kept])
