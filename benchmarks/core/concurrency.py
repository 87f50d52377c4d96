"""Full-size durability check: 8 processes x 100 CLI remembers at once must leave exactly 800 entries.

Run: ``python -m benchmarks.core.concurrency [--writers 8 --each 100 --runs 3]``.
Prints one line per run and a summary table; exits 1 if any run lost an entry. An entry is
kept whether it is active or was moved to the archive by the 100-entry auto-archive (the
defaults, as a user runs them): ``stats --json``'s total plus archived.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

LOOP = """
import subprocess, sys
for n in range(int(sys.argv[2])):
    subprocess.run([sys.executable, "-m", "toon_memory", "remember", "-c", "knowledge",
                    "-k", f"w{sys.argv[1]}-{n}", "-m", f"writer {sys.argv[1]} entry {n}"],
                   check=True, stdout=subprocess.DEVNULL)
"""


def one_run(writers: int, each: int) -> tuple[int, float]:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / ".git").mkdir()
        env = dict(os.environ, TOON_MEMORY_PROJECT=str(root), TOON_MEMORY_HOME=str(root / "home"))
        start = time.perf_counter()
        procs = [
            subprocess.Popen([sys.executable, "-c", LOOP, str(w), str(each)], env=env)
            for w in range(writers)
        ]
        if any(proc.wait() != 0 for proc in procs):
            raise SystemExit("a writer failed")
        elapsed = time.perf_counter() - start
        stats = subprocess.run([sys.executable, "-m", "toon_memory", "stats", "--json"], env=env,
                               check=True, capture_output=True, text=True).stdout  # fmt: skip
        counts = json.loads(stats)
        return counts["total"] + counts["archived"], elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--writers", type=int, default=8)
    parser.add_argument("--each", type=int, default=100)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    expected = args.writers * args.each
    print("| run | entries kept | expected | seconds |")
    print("|---:|---:|---:|---:|")
    lost = False
    for run in range(1, args.runs + 1):
        kept, elapsed = one_run(args.writers, args.each)
        lost |= kept != expected
        print(f"| {run} | {kept} | {expected} | {elapsed:.1f} |", flush=True)
    sys.exit(1 if lost else 0)


if __name__ == "__main__":
    main()
