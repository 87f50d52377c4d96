"""Import benchmark: entries/s of ``toon-memory import`` and the peak RSS of the importing process.

Run: ``python -m benchmarks.core.import_bench [--sizes 1000,10000,100000] [--profile N]
[--compare OTHER/src] [--no-after]`` (``--compare``: measure another checkout too, e.g.
main's from ``git archive``, each of its rows right after this one's, so both see the
same machine; ``--no-after``: skip the recall and remember after each import).
For each size it writes a JSON export of that many synthetic entries (Zipf words,
tags, links, a few repeated keys and secrets-free content; in a temp folder), then
runs ``python -m toon_memory import FILE --json`` as a subprocess, once into an
empty memory and once into a memory that already holds 10,000 entries. Wall time
is from process start to exit (imports and interpreter start included); the RSS is
``ru_maxrss`` of that process itself, read with ``os.wait4`` (not of this harness).
After each import it times the first cold ``recall`` (which rebuilds or catches
up the on-disk index) and the first ``remember`` (which applies the default
100-entry auto-archive to everything imported). ``--profile N`` instead imports
N entries in this process under cProfile and prints the top functions.
Nothing here touches the network.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.core.store_bench import WORDS, _vocabulary, synthetic_memory

BASE = 10_000


def export_file(path: Path, n: int, seed: int = 1) -> None:
    """A JSON export of ``n`` synthetic entries (keys ``imp-<i>``; 1 in 200 repeats a key),
    written a row at a time (the bytes of ``json.dumps`` of the whole): this harness stays
    small, and a child's peak RSS can count pages of the parent it was forked from."""
    from toon_memory.model.entry import CATEGORIES

    rng = random.Random(seed)
    vocab = _vocabulary(rng)
    weights = [1 / (rank + 1) for rank in range(len(vocab))]
    with path.open("w", encoding="utf-8") as out:
        out.write('{"version": 1, "entries": [')
        for i in range(n):
            key = f"imp-{i - 1 if i and i % 200 == 0 else i}"
            links = [f"imp-{rng.randrange(n)}"] if i and rng.random() < 0.3 else []
            row = {
                "id": f"{i:08x}", "category": CATEGORIES[i % 5], "key": key,
                "content": " ".join(rng.choices(vocab, weights, k=rng.randint(8, 30))),
                "tags": rng.sample(WORDS, 2), "links": links, "date": "2026-07-01",
                "created": "2026-07-01T00:00:00Z", "updated": "2026-07-01T00:00:00Z",
            }  # fmt: skip
            out.write((", " if i else "") + json.dumps(row))
        out.write('], "summaries": []}')


#: The ``src`` folder measured now ("" = the installed package), set per row by ``main``.
SOURCE: list[str] = [""]


def _run(root: Path, *args: str) -> tuple[float, float, bytes]:
    """Wall seconds, the process's own peak RSS (MB) and its stdout."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["TOON_MEMORY_PROJECT"] = str(root)
    if SOURCE[0]:
        env["PYTHONPATH"] = SOURCE[0]
    with tempfile.TemporaryFile() as out:
        start = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-m", "toon_memory", *args], env=env,
                                stdout=out, stderr=subprocess.PIPE)  # fmt: skip
        assert proc.stderr is not None
        err = proc.stderr.read()
        _pid, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        text = out.read()
    if proc.returncode:
        raise SystemExit(f"{' '.join(args)} failed ({proc.returncode}): {err.decode()[-2000:]}")
    return seconds, usage.ru_maxrss / 1024, text


def measure(n: int, export: Path, base: int, after: bool = True) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / ".git").mkdir()
        if base:
            synthetic_memory(root, base)
            (root / ".toon-memory" / "memory" / "config.json").unlink()  # the default config
            _run(root, "stats")  # the base memory loaded once (its cache built), as in use
        seconds, rss, out = _run(root, "import", str(export), "--json")
        added = json.loads(out)["added"]
        recall = _run(root, "recall", "redis timeout")[0] if after else float("nan")
        remember = (_run(root, "remember", "-c", "bug", "-k", "after-import", "-m", "one more")[0]
                    if after else float("nan"))  # fmt: skip
    return {"n": n, "base": base, "added": added, "seconds": seconds, "rate": n / seconds,
            "rss": rss, "recall": recall, "remember": remember}  # fmt: skip


def profile(n: int) -> None:
    import cProfile
    import pstats

    from toon_memory import Memory

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / ".git").mkdir()
        export = root / "export.json"
        export_file(export, n)
        memory = Memory(root)
        profiler = cProfile.Profile()
        profiler.enable()
        memory.import_(export)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(35)
        pstats.Stats(profiler).sort_stats("tottime").print_stats(25)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--profile", type=int, default=0, help="profile one import of N entries")
    parser.add_argument(
        "--compare",
        default="",
        metavar="SRC",
        help="also measure the toon_memory in this src folder, row by row",
    )
    parser.add_argument("--no-after", action="store_true", help="skip the recall/remember after")
    args = parser.parse_args()
    sources = [("this", ""), *([("other", args.compare)] if args.compare else [])]
    os.environ.setdefault("TOON_MEMORY_TODAY", "2026-07-15")
    with tempfile.TemporaryDirectory() as home:
        os.environ["TOON_MEMORY_HOME"] = home
        if args.profile:
            profile(args.profile)
            return
        print("| code | entries | into | added | import s | entries/s | import peak RSS MB "
              "| then cold recall s | then remember s (auto-archive) |")  # fmt: skip
        print("|---|---:|---|---:|---:|---:|---:|---:|---:|", flush=True)
        for n in (int(size) for size in args.sizes.split(",")):
            export = Path(home) / f"export-{n}.json"
            export_file(export, n)
            for base in (0, BASE):
                for name, src in sources:
                    SOURCE[0] = src
                    _print_row(name, measure(n, export, base, not args.no_after))


def _print_row(code: str, r: dict[str, float]) -> None:
    into = f"{r['base']:,} entries" if r["base"] else "empty"
    print(f"| {code} | {r['n']:,} | {into} | {r['added']:,} | {r['seconds']:.2f} | "
          f"{r['rate']:,.0f} | {r['rss']:.0f} | {r['recall']:.2f} | {r['remember']:.2f} |",
          flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
