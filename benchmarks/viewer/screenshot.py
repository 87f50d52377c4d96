"""Regenerate ``docs/viewer.png``: the live viewer over a small, realistic memory.

Run: ``python -m benchmarks.viewer.screenshot [docs/viewer.png]`` (needs Playwright for
Python and a system chromium). Builds the memory in a temporary project, starts the
real ``toon-memory viewer``, selects the busiest entry and opens its detail panel.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from benchmarks.viewer.render_bench import ARGS, chromium

ENTRIES: tuple[tuple[str, str, str, str, str], ...] = (
    # category, key, content, tags, links
    (
        "decision",
        "use-postgres",
        "Orders and payments live in Postgres 16; no second database.",
        "db",
        "",
    ),
    (
        "decision",
        "use-zod",
        "Validate every API payload with Zod schemas shared from src/types.ts.",
        "validation",
        "api-error-shape",
    ),
    (
        "decision",
        "jwt-auth",
        "JWT access tokens (15 min) with rotating refresh tokens; see [[token-refresh]].",
        "auth",
        "session-redis",
    ),
    (
        "decision",
        "queue-for-email",
        "Emails go through the job queue, never from a request handler.",
        "queue",
        "retry-backoff",
    ),
    (
        "decision",
        "feature-flags",
        "Flags in the config service; default off in production.",
        "config",
        "",
    ),
    (
        "pattern",
        "api-error-shape",
        "Errors return {code, message, details}; see [[use-zod]] for validation errors.",
        "api",
        "",
    ),
    (
        "pattern",
        "token-refresh",
        "Refresh on 401 once, then log out; never loop.",
        "auth",
        "jwt-auth",
    ),
    (
        "pattern",
        "retry-backoff",
        "Retry jobs 5 times with exponential backoff and jitter.",
        "queue",
        "",
    ),
    (
        "pattern",
        "repo-layer",
        "Handlers call services; only repositories touch SQL.",
        "db",
        "use-postgres",
    ),
    (
        "pattern",
        "idempotent-webhooks",
        "Webhook handlers store the event id and ignore repeats.",
        "payments",
        "stripe-webhooks",
    ),
    (
        "pattern",
        "money-in-cents",
        "Money is an integer number of cents everywhere.",
        "payments",
        "use-postgres",
    ),
    (
        "bug",
        "redis-pool-timeout",
        "Redis timeouts under load: pool raised to 20, see [[session-redis]].",
        "redis",
        "",
    ),
    (
        "bug",
        "double-charge",
        "Retried webhook charged twice; fixed by [[idempotent-webhooks]].",
        "payments",
        "stripe-webhooks",
    ),
    (
        "bug",
        "tz-invoice-date",
        "Invoices dated in UTC showed the wrong day; format in the customer's zone.",
        "billing",
        "money-in-cents",
    ),
    (
        "bug",
        "n-plus-one-orders",
        "Order list did one query per line item; use a join in the repository.",
        "db",
        "repo-layer",
    ),
    (
        "bug",
        "flaky-login-test",
        "Login e2e test raced the token refresh; wait for the refresh call.",
        "tests",
        "token-refresh",
    ),
    ("knowledge", "session-redis", "Sessions and rate limits in Redis, 24h TTL.", "redis", ""),
    (
        "knowledge",
        "stripe-webhooks",
        "Stripe sends webhooks at least once, possibly out of order.",
        "payments",
        "",
    ),
    (
        "knowledge",
        "deploy-flow",
        "Deploys run from main through CI, then a manual approval.",
        "deploy",
        "feature-flags",
    ),
    (
        "knowledge",
        "ci-cache",
        "CI caches uv and pnpm stores keyed on the lock files.",
        "ci",
        "deploy-flow",
    ),
    (
        "knowledge",
        "schema-migrations",
        "Migrations with alembic; one per pull request.",
        "db",
        "use-postgres",
    ),
    (
        "knowledge",
        "rate-limits",
        "Public API: 100 requests a minute per key, kept in [[session-redis]].",
        "api",
        "",
    ),
    (
        "warning",
        "no-raw-sql",
        "Never build SQL by string concatenation: use the query builder.",
        "db security",
        "repo-layer",
    ),
    (
        "warning",
        "no-friday-deploys",
        "No production deploys on Friday afternoons.",
        "deploy",
        "deploy-flow",
    ),
    (
        "warning",
        "no-secrets-in-logs",
        "Never log tokens or card data; the logger masks known fields.",
        "security",
        "jwt-auth",
    ),
    (
        "warning",
        "migration-locks",
        "Adding a column with a default locks big tables: backfill in batches.",
        "db",
        "schema-migrations",
    ),
)


def build(folder: Path) -> None:
    from toon_memory.memory.api import Memory

    (folder / ".git").mkdir(parents=True)
    memory = Memory(folder)
    for category, key, content, tags, links in ENTRIES:
        memory.remember(category, key, content, tags=tags.split(), links=links.split())
    for key, times in (
        ("use-postgres", 9),
        ("jwt-auth", 6),
        ("session-redis", 5),
        ("repo-layer", 4),
    ):
        for _ in range(times):
            memory.recall(key, ids=key)


def main() -> int:
    from playwright.sync_api import sync_playwright
    from tests.adapters.viewer.helpers import start_viewer, stop_viewer

    out = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/viewer.png").resolve()
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["TOON_MEMORY_HOME"] = str(Path(tmp) / "home")
        project = Path(tmp) / "shop"
        build(project)
        viewer = start_viewer(project)
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path=chromium(), headless=True, args=ARGS
                )
                page = browser.new_page(viewport={"width": 1400, "height": 820}, color_scheme="dark",
                                        device_scale_factor=1)  # fmt: skip
                page.goto(viewer.url)
                page.locator('body[data-settled="1"]').wait_for(state="attached", timeout=60_000)
                hub = page.locator('#graph circle.node[data-key="use-postgres"]')
                hub.click()
                page.locator('body[data-settled="1"]').wait_for(state="attached", timeout=60_000)
                page.wait_for_timeout(600)
                hub.dblclick()
                page.mouse.move(5, 400)
                page.wait_for_timeout(300)
                out.parent.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(out))
                browser.close()
        finally:
            stop_viewer(viewer)
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
