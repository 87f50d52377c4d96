"""Viewer benchmark: first render of the memory graph at N entries in headless Chromium.

Run: ``python -m benchmarks.viewer.render_bench [--entries 5000 --runs 3]``
(needs Playwright for Python and a system chromium, e.g. ``/usr/bin/chromium``;
never downloads a browser).

Builds a memory of N linked entries in a temporary project (one import), then
measures, median of ``--runs`` fresh tabs each:

- build: ``graph_payload`` + the self-contained page in Python (the export's cost);
- first render: navigation start -> the first frame with every node drawn
  (``ToonViewer.firstRenderMs``), for the static export opened from ``file://``
  and for the live server (``/`` + ``/api/graph`` over HTTP);
- search: a query -> every node's match/faded class applied and the list redrawn;
- select: a click's work (selection, neighbours highlighted, labels, list in sync);
- settled: navigation start -> the force layout at rest (informative).

Budget: first render <= 3 s at 5,000 entries (exit status 1 if over). No network.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

BUDGET_S = 3.0
WORDS = ["redis", "cache", "pool", "timeout", "auth", "token", "login", "schema", "zod", "validation", "deploy", "docker", "queue", "retry", "backoff", "index", "query", "migration", "postgres", "logging", "metrics", "worker", "cron", "billing", "invoice"]  # fmt: skip
CATEGORIES = ["decision", "pattern", "bug", "knowledge", "warning"]
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]  # fmt: skip


def rows(count: int, seed: int = 7) -> list[dict[str, Any]]:
    """``count`` entries, each linking to one or two earlier ones (some by ``[[key]]``)."""
    rng = random.Random(seed)
    out: list[dict[str, Any]] = []
    for i in range(count):
        words = rng.sample(WORDS, 6)
        links = [f"e{rng.randrange(i)}" for _ in range(rng.choice([0, 1, 1, 2]))] if i else []
        mention = f" see [[e{rng.randrange(i)}]]" if i and rng.random() < 0.3 else ""
        out.append({
            "category": CATEGORIES[i % len(CATEGORIES)], "key": f"e{i}",
            "content": " ".join(words) + f" note {i}" + mention, "tags": ";".join(words[:2]),
            "links": " ".join(dict.fromkeys(links)), "accessed": rng.choice([0, 0, 1, 3, 9, 30]),
            "date": f"2026-{1 + i % 6:02d}-{1 + i % 28:02d}",
        })  # fmt: skip
    return out


def build_memory(folder: Path, count: int) -> Any:
    from toon_memory.memory.api import Memory

    (folder / ".git").mkdir(parents=True)
    memory = Memory(folder)
    memory.import_rows(rows(count))
    return memory


def chromium() -> str:
    for candidate in ("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"):
        if os.path.exists(candidate):
            return candidate
    sys.exit("no chromium found (apt-get install -y chromium)")


def measure(browser: Any, url: str, count: int) -> dict[str, float]:
    page = browser.new_page(viewport={"width": 1400, "height": 900}, bypass_csp=True)
    try:
        page.goto(url)
        page.locator('body[data-rendered="1"]').wait_for(state="attached", timeout=60_000)
        first = page.evaluate("ToonViewer.firstRenderMs") / 1000
        drawn = page.locator("#graph circle.node").count()
        if drawn != count:
            raise AssertionError(f"{drawn} nodes drawn, {count} expected")
        search = (
            page.evaluate(
                "() => { const t = performance.now(); ToonViewer.setQuery('redis timeout');"
                " return performance.now() - t; }"
            )
            / 1000
        )
        page.evaluate("ToonViewer.setQuery('')")
        select = (
            page.evaluate(
                "() => { const t = performance.now(); ToonViewer.select(ToonViewer.state.nodes[7].id);"
                " return performance.now() - t; }"
            )
            / 1000
        )
        page.evaluate("ToonViewer.select(null)")
        try:
            page.locator('body[data-settled="1"]').wait_for(state="attached", timeout=120_000)
            settled = page.evaluate("performance.now()") / 1000
        except Exception:
            settled = float("nan")
        return {"first": first, "search": search, "select": select, "settled": settled}
    finally:
        page.close()


def serve_live(memory: Any) -> tuple[Any, str]:
    from toon_memory.adapters.viewer.http import ViewerApp, ViewerServer

    server = ViewerServer(ViewerApp(memory), 0)
    threading.Thread(target=server.serve_forever, args=(0.1,), daemon=True).start()
    return server, f"http://127.0.0.1:{server.app.port}/"


def median(runs: list[dict[str, float]], name: str) -> float:
    return statistics.median(run[name] for run in runs)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--entries", type=int, default=5000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    from toon_memory.adapters.viewer.page import write_export
    from toon_memory.adapters.viewer.payload import graph_payload

    with tempfile.TemporaryDirectory() as tmp:
        os.environ["TOON_MEMORY_HOME"] = str(Path(tmp) / "home")
        memory = build_memory(Path(tmp) / "project", args.entries)
        start = time.perf_counter()
        payload = graph_payload(memory)
        target = write_export(payload, Path(tmp) / "view.html")
        build = time.perf_counter() - start
        size = target.stat().st_size
        server, live_url = serve_live(memory)
        results: dict[str, list[dict[str, float]]] = {"static (file://)": [], "live (http)": []}
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=chromium(), headless=True, args=ARGS
            )
            for _ in range(args.runs):
                results["static (file://)"].append(measure(browser, target.as_uri(), args.entries))
                results["live (http)"].append(measure(browser, live_url, args.entries))
            version = browser.version
            browser.close()
        server.app.changes.close()
        server.shutdown()
        server.server_close()
    print(f"Viewer render benchmark: {args.entries:,} entries, {len(payload['edges']):,} links, "
          f"Chromium {version} headless, median of {args.runs}")  # fmt: skip
    print(f"build payload + page (Python): {build:.3f} s, {size / 1e6:.1f} MB")
    print("| page | first render | search | select | layout settled |")
    print("|---|---:|---:|---:|---:|")
    for name, runs in results.items():
        print(f"| {name} | {median(runs, 'first'):.2f} s | {median(runs, 'search') * 1000:.0f} ms "
              f"| {median(runs, 'select') * 1000:.0f} ms | {median(runs, 'settled'):.1f} s |")  # fmt: skip
    worst = max(median(runs, "first") for runs in results.values())
    verdict = "within" if worst <= BUDGET_S else "OVER"
    print(f"budget: first render <= {BUDGET_S:.0f} s -> {verdict} ({worst:.2f} s)")
    return 0 if worst <= BUDGET_S else 1


if __name__ == "__main__":
    raise SystemExit(main())
