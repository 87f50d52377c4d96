"""Secret scan cost on the write path: the scan alone, remember with and without it at
N entries (interleaved, same process), the cold CLI remember, and the library's import.

Run: ``env -u PYTHONDONTWRITEBYTECODE python -m benchmarks.core.secret_scan_bench``.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.core.store_bench import _cli, synthetic_memory

ORDINARY = "benchmark entry about redis timeouts in the cache layer, see src/cache.py"


def _texts() -> dict[str, str]:
    return {
        "ordinary (73 chars)": ORDINARY,
        "prose 64 KB": "the quick brown fox jumps over the lazy dog " * 1480,
        "adversarial eyJ 63 KB": "eyJ" * 21000,
        "adversarial ://a: 64 KB": "://a:" * 13000,
        "one AWS key id in 32 KB": "the quick brown fox " * 1600 + "AK" + "IA" + "B" * 16,
    }


def scan_costs() -> list[tuple[str, float]]:
    from toon_memory.rules.secrets import _plugins, scan_text

    _plugins()  # the library import is measured apart
    rows = []
    for name, text in _texts().items():
        runs = []
        for _ in range(5):
            start = time.perf_counter()
            scan_text(text)
            runs.append(time.perf_counter() - start)
        rows.append((name, statistics.median(runs) * 1000))
    return rows


def import_ms(module: str, base: str = "pass") -> float:
    """Median wall time of a fresh interpreter importing ``module`` after ``base``, minus
    that of ``base`` alone."""

    def run(code: str) -> float:
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True)
        return time.perf_counter() - start

    bare = statistics.median(run(base) for _ in range(9))
    return (statistics.median(run(f"{base}; import {module}") for _ in range(9)) - bare) * 1000


def remember_ab(n: int, repeats: int) -> tuple[float, float, float]:
    """(p50 ms scanned, p50 ms not scanned, CLI remember ms) at ``n`` entries."""
    from toon_memory import Memory

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / ".git").mkdir()
        synthetic_memory(root, n)
        memory = Memory(root)
        memory.entries()
        timed: dict[bool, list[float]] = {True: [], False: []}
        for i in range(repeats):
            allow = bool(i % 2)
            start = time.perf_counter()
            memory.remember("decision", f"bench-{i}", f"{ORDINARY} {i}", allow_secrets=allow)
            timed[allow].append(time.perf_counter() - start)
        _cli(root, "recall", "redis timeout")  # warm-up
        cli = [_cli(root, "remember", "-c", "bug", "-k", f"cli-{i}", "-m", ORDINARY)
               for i in range(5)]  # fmt: skip
    return (statistics.median(timed[False]) * 1000, statistics.median(timed[True]) * 1000,
            statistics.median(cli) * 1000)  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--size", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=200)
    args = parser.parse_args()
    print("| text | scan ms |\n|---|---:|")
    for name, ms in scan_costs():
        print(f"| {name} | {ms:.3f} |")
    own = import_ms("toon_memory.rules.secrets", "import toon_memory.model.entry")
    print(f"\nimport toon_memory.rules.secrets (after toon_memory.model.entry): {own:.1f} ms; "
          f"detect-secrets plugins (only when the prefilter matches): "
          f"{import_ms('detect_secrets.plugins.aws'):.0f} ms")  # fmt: skip
    scanned, plain, cli = remember_ab(args.size, args.repeats)
    print(
        f"\nremember p50 at {args.size:,} entries: scanned {scanned:.1f} ms, "
        f"allow_secrets (no scan) {plain:.1f} ms; cold CLI remember {cli:.0f} ms"
    )


if __name__ == "__main__":
    main()
