"""Hook benchmark: cold ``toon-memory hook session-start`` / ``post-tool`` / ``stop`` at N entries.

Run: ``env -u PYTHONDONTWRITEBYTECODE python -m benchmarks.core.hook_bench [--sizes 1000,10000]``.

A hook is a fresh process per agent event, fed the agent's JSON payload on
stdin (Claude Code's shapes), in a real git repository holding a synthetic
memory (``store_bench.synthetic_memory``) and two other active sessions. Each
command is timed from spawn to exit, after one warm-up run (bytecode compiled,
the memory's cache built); a cold ``recall`` is timed beside them as the
reference of the other cold commands. Prints p50 and p90 in milliseconds.
Budget: session-start and post-tool <= 150 ms p50 at 10,000 entries.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.core.store_bench import synthetic_memory

SESSION = "5c1f0d2e-bench"


def _payload(root: Path, event: str, **extra: object) -> str:
    return json.dumps({"session_id": SESSION, "transcript_path": "/tmp/t.jsonl", "cwd": str(root),
                       "permission_mode": "default", "hook_event_name": event, **extra})  # fmt: skip


def _project(tmp: Path, n: int) -> Path:
    from toon_memory import Memory

    root = tmp / f"p{n}"
    root.mkdir()
    for args in (["init", "-q", "-b", "main"], ["config", "user.email", "b@e.x"],
                 ["config", "user.name", "Bench"], ["commit", "-q", "--allow-empty", "-m", "x"]):  # fmt: skip
        subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)
    synthetic_memory(root, n)
    memory = Memory(root)
    memory.init()
    for sid, file in (("other-1", "src/a.py"), ("other-2", "src/a.py")):
        memory.sessions.beat(sid, agent="codex", files=[file, "src/b.py"], pid=1)
    return root


def _timed(root: Path, args: list[str], stdin: str = "") -> float:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("PYTHONDONTWRITEBYTECODE", "TOON_MEMORY_PROJECT")
    }
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "toon_memory", *args], input=stdin, text=True,
                          cwd=root, env=env, capture_output=True, check=True)  # fmt: skip
    elapsed = time.perf_counter() - start
    if done.stderr:
        raise RuntimeError(f"{args}: {done.stderr}")
    return elapsed


def measure(tmp: Path, n: int, repeats: int) -> dict[str, tuple[float, float]]:
    root = _project(tmp, n)
    edit = _payload(root, "PostToolUse", tool_name="Edit", tool_use_id="toolu_1",
                    tool_input={"file_path": str(root / "src/a.py"), "old_string": "a",
                                "new_string": "b"})  # fmt: skip
    runs = {
        "session-start": (
            ["hook", "session-start"],
            _payload(root, "SessionStart", source="startup"),
        ),
        "post-tool": (["hook", "post-tool"], edit),
        "stop": (["hook", "stop"], _payload(root, "Stop", stop_hook_active=False)),
        "recall (reference)": (["recall", "redis pool timeout"], ""),
    }
    for args, stdin in runs.values():
        _timed(root, args, stdin)  # warm-up: bytecode, caches
    found: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(repeats):  # interleaved, so machine noise hits every command alike
        for name, (args, stdin) in runs.items():
            found[name].append(_timed(root, args, stdin) * 1000)
    return {
        name: (statistics.median(times), sorted(times)[int(len(times) * 0.9)])
        for name, times in found.items()
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000")
    parser.add_argument("--repeats", type=int, default=15)
    args = parser.parse_args()
    os.environ.setdefault("TOON_MEMORY_TODAY", "2026-07-15")
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["TOON_MEMORY_HOME"] = str(Path(tmp) / "home")
        rows = [(int(n), measure(Path(tmp), int(n), args.repeats)) for n in args.sizes.split(",")]
    names = list(rows[0][1])
    print(
        f"Cold hook commands, ms (p50 / p90 of {args.repeats}; Python {sys.version.split()[0]})\n"
    )
    print("| entries | " + " | ".join(names) + " |")
    print("|---:|" + "---:|" * len(names))
    for n, found in rows:
        cells = " | ".join(f"{found[name][0]:.0f} / {found[name][1]:.0f}" for name in names)
        print(f"| {n:,} | {cells} |")


if __name__ == "__main__":
    main()
