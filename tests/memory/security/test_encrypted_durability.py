"""An encrypted memory under real processes: parallel writers lose nothing, SIGKILL loses nothing."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.conftest import no_entry_cap, run_cli
from tests.memory.security.conftest import grep

from toon_memory import Memory
from toon_memory.store import crypto

WRITER = """
import sys
from toon_memory import Memory
memory = Memory(sys.argv[1])
for n in range(int(sys.argv[3])):
    memory.remember("knowledge", f"w{sys.argv[2]}-{n}", f"wallaby writer {sys.argv[2]} entry {n}")
"""

KILLED = """
import sys
from toon_memory import Memory
memory = Memory(sys.argv[1])
for n in range(int(sys.argv[2]), 10**6):
    memory.remember("knowledge", f"crash-{n}", f"wallaby {n} | pipe: and \\"quote\\"" + "x" * (n % 300))
    print(n, flush=True)
"""


def _encrypted(project: Path, seeds: int) -> Memory:
    no_entry_cap(project)
    memory = Memory(project)
    if seeds:
        rows = [{"key": f"seed-{n}", "content": "seed " + "y" * 200} for n in range(seeds)]
        (project / "seed.json").write_text(json.dumps(rows))
        memory.import_(project / "seed.json")
        (project / "seed.json").unlink()
    memory.remember("knowledge", "first", "before encryption")
    memory.security.encrypt()
    return memory


def _keys(project: Path) -> set[str]:
    out = project.parent / "export.json"
    run_cli("export", str(out), project=project, check=True)
    return {e["key"] for e in json.loads(out.read_text())["entries"]}


def test_eight_processes_twenty_writes_each_keep_all(project: Path) -> None:
    memory = _encrypted(project, 400)  # big enough that writes go to the journal
    writers, each = 8, 20
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, str(project), str(w), str(each)])
             for w in range(writers)]  # fmt: skip
    for proc in procs:
        assert proc.wait(timeout=300) == 0
    keys = _keys(project)
    assert {f"w{w}-{n}" for w in range(writers) for n in range(each)} <= keys
    assert len(keys) == writers * each + 401
    run_cli("compact", project=project, check=True)
    assert crypto.is_sealed(memory.paths.data.read_bytes())
    assert len(Memory(project).entries()) == len(keys)
    (project.parent / "export.json").unlink()
    assert grep("wallaby", project, project.parent / "home") == []


def test_sigkill_during_encrypted_writes_keeps_every_returned_write(project: Path) -> None:
    _encrypted(project, 0)
    rng = random.Random(11)
    confirmed: set[int] = set()
    start = 0
    for _round in range(4):
        proc = subprocess.Popen([sys.executable, "-c", KILLED, str(project), str(start)],
                                stdout=subprocess.PIPE, text=True, env=dict(os.environ))  # fmt: skip
        assert proc.stdout is not None
        first = proc.stdout.readline()  # the key derivation is slow on a busy machine: the
        time.sleep(rng.uniform(0.1, 0.9))  # kill comes at a random point after a first write
        proc.send_signal(signal.SIGKILL)
        out, _ = proc.communicate()
        numbers = [int(line) for line in (first + out).split()]
        confirmed.update(numbers)
        start = (max(numbers) + 1) if numbers else start
        assert {f"crash-{n}" for n in confirmed} <= _keys(project)
    assert confirmed, "the writer never completed a write"
    (project.parent / "export.json").unlink()
    assert grep("wallaby", project, project.parent / "home") == []
