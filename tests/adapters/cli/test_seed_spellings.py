"""The seeds' CLI spellings and small CLI answers (issue 22, items 9 and 13), as subprocesses."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

from tests.conftest import run_cli


def test_export_without_a_file_writes_the_seeds_file_in_the_working_directory(
    project: Path, tmp_path: Path
) -> None:
    run_cli("remember", "-c", "decision", "-k", "use-zod", "-m", "Validate payloads with zod",
            project=project, check=True)  # fmt: skip
    where = tmp_path / "elsewhere"
    where.mkdir()
    done = subprocess.run(
        [sys.executable, "-m", "toon_memory", "--project", str(project), "export"],
        cwd=where, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    written = where / "toon-memory-export.json"
    assert "use-zod" in written.read_text(encoding="utf-8")
    assert "toon-memory-export.json" in done.stdout


def test_watch_takes_the_seeds_interval_and_short_flags(project: Path) -> None:
    run_cli("remember", "-c", "decision", "-k", "use-zod", "-m", "Validate payloads with zod",
            project=project, check=True)  # fmt: skip
    env = {**os.environ, "TOON_MEMORY_PROJECT": str(project)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "toon_memory", "watch", "15", "-c", "-m", "20", "--json"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )  # fmt: skip
    assert proc.stderr is not None
    first = proc.stderr.readline()  # "watching ... every 15 min" once it runs
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, first + err
    assert "every 15 min (max backups 20, compression on" in first, first
    assert json.loads(out)["checks"] >= 0
    assert run_cli("watch", "0", project=project, timeout=30).returncode == 2


SEED_FILE = """version: 1
entries[2|]{id|category|key|content|file|tags|date|ttl|accessed|links|quality|confidence|lastAccessed|priority|path_scope|origin|status|supersededOn|importance|evidence}:
  a1b2c3d4|decision|use-zod|Use Zod for validation|src/types.ts|validation;types|2026-07-10||0||0.65|1.0||0||agent|active|||verified
  i9j0k1l2|bug|redis-pool-fix|Added max_connections=20 (see [[use-zod]])|redis.ts|redis;fix|2026-07-10|7d|0|use-zod|0.70|0.9||0||agent|active|||conflict
summaries:
  src/services/redis.ts: Redis connection pool with retry logic
"""


def test_import_of_the_seed_format_keeps_a_relative_ttl_and_a_clean_summary(
    project: Path, tmp_path: Path
) -> None:
    source = tmp_path / "data.toon"
    source.write_text(SEED_FILE, encoding="utf-8")
    run_cli("import", str(source), project=project, check=True)
    entry = json.loads(run_cli("get", "redis-pool-fix", "--json", project=project,
                               check=True).stdout)["entries"][0]  # fmt: skip
    assert entry["ttl"] == "2026-07-17", entry  # 7 days from the entry's date
    summary = run_cli("summary", "src/services/redis.ts", project=project, check=True).stdout
    assert "()" not in summary and "Redis connection pool with retry logic" in summary
