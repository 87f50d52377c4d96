"""Parallel writers lose nothing; a SIGKILL mid-write leaves a decodable file with every returned write."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import toon_format
from tests.conftest import no_entry_cap, run_cli

WRITER = """
import sys
from toon_memory import Memory
memory = Memory(sys.argv[1])
for n in range(int(sys.argv[2]), 10**6):
    memory.remember("knowledge", f"crash-{n}", f"entry {n} | with pipe: and \\"quote\\"\\n" + "x" * (n % 300))
    print(n, flush=True)
"""

CLI_LOOP = """
import subprocess, sys
for n in range(int(sys.argv[2])):
    subprocess.run([sys.executable, "-m", "toon_memory", "remember", "-c", "knowledge",
                    "-k", f"w{sys.argv[1]}-{n}", "-m", f"writer {sys.argv[1]} entry {n}"], check=True,
                   stdout=subprocess.DEVNULL)
"""


def _keys(project: Path) -> set[str]:
    done = run_cli("export", str(project / "export.json"), project=project, check=True)
    assert done.returncode == 0
    return {e["key"] for e in json.loads((project / "export.json").read_text())["entries"]}


@pytest.mark.parametrize("large", [False, True], ids=["eager-compaction", "journal"])
def test_parallel_cli_writers_lose_nothing(project: Path, large: bool) -> None:
    writers, each = 4, 15
    env = dict(os.environ, TOON_MEMORY_PROJECT=str(project))
    if large:  # pre-fill past the eager-compaction size so writes go to the journal
        no_entry_cap(project)
        rows = [{"key": f"seed-{n}", "content": "seed " + "y" * 200} for n in range(400)]
        (project / "seed.json").write_text(json.dumps(rows))
        run_cli("import", str(project / "seed.json"), project=project, check=True)
    procs = [subprocess.Popen([sys.executable, "-c", CLI_LOOP, str(w), str(each)], env=env)
             for w in range(writers)]  # fmt: skip
    for proc in procs:
        assert proc.wait(timeout=300) == 0
    keys = _keys(project)
    assert {f"w{w}-{n}" for w in range(writers) for n in range(each)} <= keys
    assert len(keys) == writers * each + (400 if large else 0)
    run_cli("compact", project=project, check=True)
    data = toon_format.loads((project / ".toon-memory/memory/data.toon").read_text(), strict=True)
    assert len(data["entries"]) == len(keys)


def test_sigkill_during_writes_keeps_every_returned_write(project: Path) -> None:
    no_entry_cap(project)  # hundreds of writes: the 100-entry cap would archive the first ones
    rng = random.Random(7)
    confirmed: set[int] = set()
    start = 0
    for _round in range(6):
        proc = subprocess.Popen([sys.executable, "-c", WRITER, str(project), str(start)],
                                stdout=subprocess.PIPE, text=True)  # fmt: skip
        assert proc.stdout is not None
        first = proc.stdout.readline()  # start-up is slow on a busy machine: the kill comes
        time.sleep(rng.uniform(0.0, 0.8))  # at a random point after a first acknowledged write
        proc.send_signal(signal.SIGKILL)
        out, _ = proc.communicate()
        numbers = [int(line) for line in (first + out).split()]
        confirmed.update(numbers)
        start = (max(numbers) + 1) if numbers else start
        data_file = project / ".toon-memory/memory/data.toon"
        if data_file.exists():
            toon_format.loads(data_file.read_text(), strict=True)
        keys = _keys(project)
        assert {f"crash-{n}" for n in confirmed} <= keys
    assert confirmed, "the writer never completed a write"
