"""Memories and sessions for the context-tool benchmark's fixture project (``fixture.py``).

Two memories about the fixture's shop: ``curated_entries()`` (36 entries an
agent would really keep: decisions, patterns, bugs, knowledge, warnings, with
files, tags, links, one expired TTL, one orphan link, one duplicate, one
missing file) for the token table, and ``generated_entries(n)`` (the same
kinds of facts drawn from templates plus 6-16 words of a Zipf vocabulary
(``benchmarks.retrieval.latency``), ~3% inactive, ~2% expired, ~2% pointing
at missing files, ~1% duplicated) for the 10,000-entry latency run.
``write_memory`` writes ``data.toon`` straight through the codec;
``write_sessions`` leaves heartbeat files of two live sessions (this
process's PID) and one, of the parent process, that ended 20 hours before
``END``. Deterministic for given arguments; nothing touches the network.
"""

from __future__ import annotations

import hashlib
import itertools
import random
from datetime import timedelta
from pathlib import Path

from benchmarks.context.fixture import CHANGING, END
from benchmarks.retrieval.latency import distribution
from toon_memory.model.entry import CATEGORIES, Entry

_CURATED: tuple[tuple[str, str, str, str, str, str], ...] = (
    # (category, key, content, file, tags, links)
    ("decision", "use-postgres", "Postgres for orders and payments: we need ACID transactions "
     "around capture and refund.", "src/shop/db.py", "db;postgres", "repository-pattern"),
    ("decision", "redis-cache-ttl", "Cache order reads in Redis with a 300 s TTL "
     "(CACHE_TTL_SECONDS); longer TTLs served stale totals.", "src/shop/config.py:1", "cache;redis",
     "cache-eviction-bug"),
    ("decision", "fastapi-backend", "The API is FastAPI with pydantic v2 models; no Flask.",
     "src/shop/api.py", "fastapi;api", ""),
    ("decision", "pnpm-workspace", "The web client uses pnpm, not npm: lockfile is "
     "pnpm-lock.yaml.", "package.json", "pnpm;web", ""),
    ("decision", "zustand-cart", "Cart state lives in a zustand store (CartStore), synced "
     "across tabs with the storage event.", "web/src/cart.ts", "web;state", "cart-sync-bug"),
    ("decision", "token-refresh-ahead", "Refresh auth tokens 60 s before expiry in "
     "refresh_token(), never on a 401 retry loop.", "src/shop/auth.py", "auth;tokens", ""),
    ("decision", "uv-for-python", "Python dependencies are managed with uv (uv.lock "
     "committed); run uv sync before tests.", "pyproject.toml", "python;uv", ""),
    ("pattern", "repository-pattern", "Database access goes through OrderRepository; "
     "handlers never open sessions themselves.", "src/shop/db.py", "db;architecture", ""),
    ("pattern", "cache-aside", "load_order() is cache-aside: get_cached, else repository, "
     "then set_cached with the default TTL.", "src/shop/orders.py", "cache;orders", ""),
    ("pattern", "tests-mirror-src", "Python tests live in tests/ as test_<module>.py; "
     "TypeScript tests beside the file as *.test.ts or in __tests__.", "", "tests", ""),
    ("pattern", "typed-api-client", "fetchOrder() in the web client returns typed data; "
     "never use any in web/src.", "web/src/client.ts", "typescript;web", ""),
    ("pattern", "idempotent-capture", "PaymentGateway.capture_payment must be idempotent: "
     "the gateway retries on timeouts.", "src/shop/payments.py", "payments", ""),
    ("pattern", "check-token-first", "Every API handler calls check_token() before touching "
     "data.", "src/shop/api.py", "auth;api", ""),
    ("pattern", "ruff-format", "Format with ruff format; lint with ruff check before "
     "committing.", "pyproject.toml", "python;lint", ""),
    ("bug", "cache-eviction-bug", "Cache eviction ignored the TTL when set_cached was called "
     "without ttl; fixed by defaulting to CACHE_TTL_SECONDS.", "src/shop/cache.py:9",
     "cache;bug", ""),
    ("bug", "payment-timeout", "Payment capture timed out at the gateway under load; "
     "retry with backoff, max 3 attempts.", "src/shop/payments.py", "payments;timeout", ""),
    ("bug", "cart-sync-bug", "Cart lost items when two tabs wrote at once; last write won. "
     "Merge item lists instead.", "web/src/cart.ts", "web;cart", ""),
    ("bug", "empty-cart-crash", "The client crashed on an empty cart (size 0 division).",
     "web/src/cart.ts", "web;cart", ""),
    ("bug", "order-total-rounding", "Order totals were rounded per line instead of once; "
     "use Decimal and round at the end.", "src/shop/orders.py", "orders;money", ""),
    ("bug", "legacy-export-crash", "The CSV export crashed on unicode names.",
     "src/shop/legacy_export.py", "export", ""),
    ("knowledge", "gateway-sandbox", "The payment gateway sandbox resets nightly at 02:00 "
     "UTC; tests against it fail then.", "", "payments;testing", ""),
    ("knowledge", "db-url", "DATABASE_URL defaults to postgresql://localhost/shop; CI "
     "overrides it.", "src/shop/config.py:2", "db;config", ""),
    ("knowledge", "node-version", "The web client needs Node 20 or later (engines field).",
     "package.json", "node;web", ""),
    ("knowledge", "orders-pagination", "GET /orders is paginated, 50 per page, cursor in "
     "the next field.", "src/shop/api.py", "api;orders", "fastapi-backend"),
    ("knowledge", "sprint-deadline", "Checkout redesign is due at the end of the sprint.",
     "", "planning", ""),
    ("knowledge", "auth-test-location", "auth has its test beside it: src/shop/auth_test.py.",
     "src/shop/auth_test.py", "auth;tests", ""),
    ("knowledge", "checkout-flow", "Checkout has steps cart, address, payment, confirm; "
     "CHECKOUT_STEPS counts them.", "", "checkout;web", "checkout-steps"),
    ("warning", "no-raw-sql", "Never build SQL with f-strings; use bound parameters.",
     "src/shop/db.py", "db;security", ""),
    ("warning", "no-secrets-in-config", "Do not commit real DATABASE_URL values; config.py "
     "holds local defaults only.", "src/shop/config.py", "security;config", ""),
    ("warning", "no-cache-payments", "Never cache payment state: capture results must come "
     "from the gateway.", "src/shop/payments.py", "payments;cache", ""),
    ("warning", "dont-mutate-cart", "Do not mutate CartStore.items from components; call "
     "addItem.", "web/src/cart.ts", "web;state", ""),
    ("warning", "slow-query-logging", "Slow query logging must stay under 1% sampling in "
     "production.", "", "db;logging", ""),
    ("warning", "token-in-logs", "Never log auth tokens, not even truncated.",
     "src/shop/auth.py", "auth;security", ""),
    ("pattern", "cache-aside-copy", "load_order() is cache-aside: get_cached, else repository, "
     "then set_cached with the default TTL.", "src/shop/orders.py", "cache", ""),
    ("decision", "api-versioning", "Version the API in the path (/v1/...) once a second "
     "client exists.", "", "api", ""),
    ("knowledge", "refund-tests", "Refunds are covered only by the payments tests.",
     "tests/test_payments.py", "payments;tests", ""),
)  # fmt: skip


def entry_id(*parts: str) -> str:
    return hashlib.sha1("\x1f".join(parts).encode()).hexdigest()[:8]


def _stamp(days_ago: float) -> str:
    return f"{(END - timedelta(days=days_ago)):%Y-%m-%dT%H:%M:%SZ}"


def curated_entries() -> list[Entry]:
    """The 36 entries of a small, real-looking project memory (see the module docstring)."""
    entries = []
    for i, (category, key, content, file, tags, links) in enumerate(_CURATED):
        created = _stamp(60 - i * 1.5)
        ttl = "2026-07-10" if key == "sprint-deadline" else ""
        scope = "src/shop/legacy/*.py" if key == "legacy-export-crash" else ""
        entries.append(Entry(
            id=entry_id("curated", key), category=category, key=key, content=content, file=file,
            tags=tags.split(";") if tags else [], links=links.split() if links else [],
            date=created[:10], ttl=ttl, quality=0.6 + (i % 4) / 10, accessed=i % 7,
            path_scope=scope, created=created, updated=_stamp(max(0.0, 30 - i)),
        ))  # fmt: skip
    return entries


_Words = tuple[list[str], list[float]]
_SUBJECTS = ("cache", "payments", "orders", "auth", "cart", "checkout", "api", "database",
             "tokens", "refunds", "sessions", "pagination", "logging", "migrations", "client")  # fmt: skip
_VERBS = ("must validate", "should retry", "times out on", "caches", "logs", "rejects",
          "serialises", "paginates", "locks", "refreshes", "batches", "streams")  # fmt: skip
_OBJECTS = ("order totals", "gateway responses", "expired tokens", "cart items",
            "slow queries", "refund requests", "user sessions", "webhook events",
            "price rules", "inventory counts", "coupon codes", "shipping quotes")  # fmt: skip
_WHY = ("after the incident in sprint {n}", "because the gateway is flaky",
        "so that retries stay idempotent", "to keep p95 under 200 ms",
        "as the reviewers asked in PR {n}", "until the v{n} migration lands")  # fmt: skip
_SYMBOLS = ("load_order", "set_cached", "get_cached", "capture_payment", "check_token",
            "refresh_token", "find_order", "fetchOrder", "CartStore", "refreshSession")  # fmt: skip


def _key(i: int) -> str:
    return f"{_SUBJECTS[i % len(_SUBJECTS)]}-{i}"


def _generated(rng: random.Random, i: int, n: int, words: _Words) -> Entry:
    category = CATEGORIES[i % len(CATEGORIES)]
    subject, verb, obj = _SUBJECTS[i % len(_SUBJECTS)], rng.choice(_VERBS), rng.choice(_OBJECTS)
    why = rng.choice(_WHY).format(n=rng.randint(1, 400))
    symbol = rng.choice(_SYMBOLS)
    detail = " ".join(rng.choices(words[0], cum_weights=words[1], k=rng.randint(6, 16)))
    content = f"The {subject} layer {verb} {obj} {why}: {detail}; see {symbol}()."
    roll = rng.random()
    file = ""
    if roll < 0.6:
        file = rng.choice(CHANGING) + (f":{rng.randint(1, 9)}" if rng.random() < 0.3 else "")
    elif roll < 0.62:
        file = f"src/shop/removed_{i % 50}.py"
    created = _stamp(rng.uniform(0, 365))
    links = [_key(rng.randrange(n))] if rng.random() < 0.3 else []
    if rng.random() < 0.01:
        links.append(f"{subject}-gone-{i}")
    status = "obsolete" if rng.random() < 0.03 else "active"
    return Entry(
        id=entry_id("generated", str(i)), category=category, key=_key(i),
        content=content, file=file, tags=[subject, obj.split()[-1]], links=links,
        date=created[:10], ttl="2026-07-01" if rng.random() < 0.02 else "",
        quality=round(rng.uniform(0.3, 0.95), 2), accessed=rng.randint(0, 20),
        status=status, created=created, updated=created,
    )  # fmt: skip


def generated_entries(n: int, seed: int = 9) -> list[Entry]:
    """``n`` template entries about the shop (see the module docstring)."""
    rng = random.Random(seed)
    vocab, weights = distribution(skew=False)
    words = (vocab, list(itertools.accumulate(weights)))
    entries = [_generated(rng, i, n, words) for i in range(n)]
    for i in range(0, n, 100):  # ~1% exact duplicates of a neighbour's content
        if i + 1 < n:
            entries[i + 1].content = entries[i].content
    return entries


def write_memory(root: Path, entries: list[Entry]) -> Path:
    """``data.toon`` of ``root``'s project memory holding ``entries``; returns its path."""
    from toon_memory.store.codec import encode_document
    from toon_memory.store.paths import MemoryPaths

    paths = MemoryPaths.for_project(root)
    paths.folder.mkdir(parents=True, exist_ok=True)
    paths.data.write_text(encode_document(entries, []), encoding="utf-8")
    return paths.data


def write_sessions(root: Path) -> None:
    """Two live sessions (this process) sharing a file, and one ended 20 hours before ``END``."""
    import os

    from toon_memory.store.heartbeats import beat, end_session
    from toon_memory.store.paths import MemoryPaths

    folder = MemoryPaths.for_project(root).folder
    beat(folder, "claude-0a1b2c3d", agent="claude", branch="main", root=root,
         now=END - timedelta(hours=22), files=["src/shop/orders.py", "src/shop/cache.py"],
         pid=os.getppid())  # fmt: skip
    end_session(folder, "claude-0a1b2c3d", now=END - timedelta(hours=20))
    for sid, agent, files in (
        ("codex-4e5f6a7b", "codex", ["src/shop/payments.py", "tests/test_payments.py"]),
        ("cursor-8c9d0e1f", "cursor", ["web/src/cart.ts", "src/shop/payments.py"]),
    ):
        beat(folder, sid, agent=agent, branch="main", files=files, root=root, pid=os.getpid())
