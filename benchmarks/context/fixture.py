"""A realistic fixture project for the context-tool benchmark: a real git repository.

Build: ``python -m benchmarks.context.fixture FOLDER [--commits 1000]``, or
``build_project(folder, commits=1000)`` from code.

The project is a small shop: a Python backend (``src/shop``, pytest tests
beside a ``tests/`` mirror, ``pyproject.toml`` + ``uv.lock``) and a
TypeScript web client (``web/src``, ``*.test.ts`` and ``__tests__``,
``package.json`` + ``pnpm-lock.yaml`` + ``tsconfig.json``). Its history is
``commits`` commits on ``main`` (the first adds every file, each later one
changes one source or test file), written in one ``git fast-import`` run so
that 1,000 commits take well under a second, plus a ``feature/checkout``
branch of ``FEATURE_COMMITS`` commits off ``main``'s tip minus ten. Commit
dates step back ``STEP`` from ``end``, so the newest commit is dated ``end``.
With ``dirty`` the work tree has one staged change, one unstaged change and
one untracked file. Deterministic for given arguments; nothing touches the
network.
"""

from __future__ import annotations

import argparse
import os
import subprocess
from datetime import datetime, timedelta, timezone
from pathlib import Path

END = datetime(2026, 7, 15, 12, 0, tzinfo=timezone.utc)
STEP = timedelta(hours=2)
FEATURE_COMMITS = 5
AUTHORS = (
    ("Ada Lovelace", "ada@example.com"),
    ("Grace Hopper", "grace@example.com"),
    ("Alan Turing", "alan@example.com"),
)
SUBJECTS = (
    "Fix cache eviction when the TTL expires",
    "Retry payment capture on gateway timeouts",
    "Validate order totals before checkout",
    "Refresh auth tokens ahead of expiry",
    "Paginate the orders API",
    "Log slow database queries",
    "Keep the cart in sync across tabs",
    "Handle empty carts in the client",
    "Tighten types of the API client",
    "Cover refunds with tests",
)

PY_FILES = {
    "src/shop/__init__.py": '"""The shop backend."""\n',
    "src/shop/config.py": 'CACHE_TTL_SECONDS = 300\nDATABASE_URL = "postgresql://localhost/shop"\n',
    "src/shop/cache.py": (
        "from shop.config import CACHE_TTL_SECONDS\n\n_store: dict[str, object] = {}\n\n\n"
        "def get_cached(key: str) -> object | None:\n    return _store.get(key)\n\n\n"
        "def set_cached(key: str, value: object, ttl: int = CACHE_TTL_SECONDS) -> None:\n"
        "    _store[key] = value\n"
    ),
    "src/shop/db.py": (
        "from shop.config import DATABASE_URL\n\n\nclass OrderRepository:\n"
        "    def find_order(self, order_id: str) -> dict[str, str]:\n"
        '        return {"id": order_id, "url": DATABASE_URL}\n'
    ),
    "src/shop/orders.py": (
        "from shop.cache import get_cached, set_cached\nfrom shop.db import OrderRepository\n\n\n"
        "def load_order(order_id: str) -> object:\n    cached = get_cached(order_id)\n"
        "    if cached is None:\n        cached = OrderRepository().find_order(order_id)\n"
        "        set_cached(order_id, cached)\n    return cached\n"
    ),
    "src/shop/payments.py": (
        "from shop.orders import load_order\n\n\nclass PaymentGateway:\n"
        "    def capture_payment(self, order_id: str) -> bool:\n"
        "        return load_order(order_id) is not None\n"
    ),
    "src/shop/auth.py": (
        "def refresh_token(token: str) -> str:\n    return token[::-1]\n\n\n"
        "def check_token(token: str) -> bool:\n    return bool(token)\n"
    ),
    "src/shop/api.py": (
        "from shop.auth import check_token\nfrom shop.orders import load_order\n\n\n"
        "def get_order(token: str, order_id: str) -> object:\n"
        "    if not check_token(token):\n        raise PermissionError(order_id)\n"
        "    return load_order(order_id)\n"
    ),
}
PY_TESTS = {
    "tests/test_cache.py": (
        "from shop.cache import get_cached, set_cached\n\n\ndef test_roundtrip() -> None:\n"
        '    set_cached("k", 1)\n    assert get_cached("k") == 1\n'
    ),
    "tests/test_orders.py": (
        "from shop.orders import load_order\n\n\ndef test_load_order() -> None:\n"
        '    assert load_order("o1")\n'
    ),
    "tests/test_payments.py": (
        "from shop.payments import PaymentGateway\n\n\ndef test_capture() -> None:\n"
        '    assert PaymentGateway().capture_payment("o1")\n'
    ),
    "src/shop/auth_test.py": (
        "from shop.auth import check_token\n\n\ndef test_check_token() -> None:\n"
        '    assert check_token("t")\n'
    ),
}
TS_FILES = {
    "web/src/client.ts": (
        "export async function fetchOrder(id: string): Promise<unknown> {\n"
        "  const response = await fetch(`/api/orders/${id}`);\n  return response.json();\n}\n"
    ),
    "web/src/cart.ts": (
        "export class CartStore {\n  private items: string[] = [];\n"
        "  addItem(id: string): void {\n    this.items.push(id);\n  }\n"
        "  get size(): number {\n    return this.items.length;\n  }\n}\n"
    ),
    "web/src/auth.ts": (
        "export function refreshSession(token: string): string {\n  return token.trim();\n}\n"
    ),
}
TS_TESTS = {
    "web/src/client.test.ts": (
        'import { fetchOrder } from "./client";\n\ntest("fetchOrder is a function", () => {\n'
        '  expect(typeof fetchOrder).toBe("function");\n});\n'
    ),
    "web/src/__tests__/cart.test.ts": (
        'import { CartStore } from "../cart";\n\ntest("adds items", () => {\n'
        '  const cart = new CartStore();\n  cart.addItem("a");\n  expect(cart.size).toBe(1);\n});\n'
    ),
}
MANIFESTS = {
    "pyproject.toml": (
        '[project]\nname = "shop"\nversion = "0.4.0"\nrequires-python = ">=3.11"\n'
        'dependencies = ["fastapi>=0.110", "redis>=5", "sqlalchemy>=2.0", "pydantic>=2.6"]\n\n'
        '[tool.uv]\ndev-dependencies = ["pytest>=8", "ruff>=0.4"]\n'
    ),
    "uv.lock": 'version = 1\nrequires-python = ">=3.11"\n',
    "package.json": (
        '{\n  "name": "shop-web",\n  "private": true,\n  "engines": {"node": ">=20"},\n'
        '  "dependencies": {"react": "^18.2.0", "zustand": "^4.5.0"},\n'
        '  "devDependencies": {"typescript": "^5.4.2", "vitest": "^1.3.0"}\n}\n'
    ),
    "pnpm-lock.yaml": "lockfileVersion: '6.0'\n",
    "tsconfig.json": '{\n  "compilerOptions": {"strict": true, "target": "ES2022"}\n}\n',
    "README.md": "# shop\n\nA Python API (`src/shop`) and a TypeScript client (`web/src`).\n",
    ".gitignore": "__pycache__/\nnode_modules/\n.venv/\n",
}
SOURCES = {**PY_FILES, **TS_FILES}
TESTS = {**PY_TESTS, **TS_TESTS}
ALL_FILES = {**MANIFESTS, **SOURCES, **TESTS}
CHANGING = sorted(name for name in (*SOURCES, *TESTS) if not name.endswith("__init__.py"))


def _data(text: str) -> bytes:
    raw = text.encode("utf-8")
    return b"data %d\n%s\n" % (len(raw), raw)


def _commit(ref: str, mark: int, when: datetime, author: int, message: str) -> bytes:
    name, email = AUTHORS[author % len(AUTHORS)]
    stamp = f"{name} <{email}> {int(when.timestamp())} +0000"
    head = f"commit {ref}\nmark :{mark}\nauthor {stamp}\ncommitter {stamp}\n"
    return head.encode("utf-8") + _data(message)


def _modify(path: str, text: str) -> bytes:
    return f"M 100644 inline {path}\n".encode() + _data(text)


def _change(files: dict[str, str], number: int) -> tuple[str, str]:
    """The file commit ``number`` changes, its new text, and the commit subject."""
    path = CHANGING[(number * 7) % len(CHANGING)]
    comment = "//" if path.endswith(".ts") else "#"
    subject = f"{SUBJECTS[number % len(SUBJECTS)]} (#{number})"
    files[path] = files[path] + f"{comment} {subject}\n"
    return path, subject


def history_stream(commits: int, end: datetime, feature: int = FEATURE_COMMITS) -> bytes:
    """The ``git fast-import`` stream of the whole history (``main`` then the feature branch)."""
    files = dict(ALL_FILES)
    first = end - STEP * (commits - 1)
    out = [_commit("refs/heads/main", 1, first, 0, "Initial shop: API, web client, tests")]
    out += [_modify(path, text) for path, text in sorted(files.items())]
    for number in range(1, commits):
        path, subject = _change(files, number)
        out.append(_commit("refs/heads/main", number + 1, first + STEP * number, number, subject))
        out.append(_modify(path, files[path]))
    base = max(commits - 10, 1)
    for offset in range(feature):
        mark = commits + 1 + offset
        when = first + STEP * (base - 1) + timedelta(minutes=30 * (offset + 1))
        out.append(
            _commit(
                "refs/heads/feature/checkout", mark, when, offset + 1, f"Checkout step {offset + 1}"
            )
        )
        if offset == 0:
            out.append(f"from :{base}\n".encode())
        out.append(_modify("web/src/checkout.ts", f"export const CHECKOUT_STEPS = {offset + 1};\n"))
    return b"".join(out)


def _git(root: Path, *args: str, stdin: bytes | None = None) -> None:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}  # a caller's repo
    env = {**clean, "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull}
    done = subprocess.run(["git", *args], cwd=root, input=stdin, env=env, capture_output=True)
    if done.returncode:
        raise RuntimeError(
            f"git {' '.join(args)} in {root}: {done.stderr.decode(errors='replace')}"
        )


def _make_dirty(root: Path) -> None:
    staged = root / "src/shop/payments.py"
    staged.write_text(staged.read_text() + "# staged: idempotent capture\n")
    _git(root, "add", "src/shop/payments.py")
    changed = root / "web/src/cart.ts"
    changed.write_text(changed.read_text() + "// unstaged: remove items\n")
    (root / "NOTES.md").write_text("Scratch notes: cache TTL vs payment retries.\n")


def build_project(
    folder: Path,
    commits: int = 1000,
    *,
    end: datetime = END,
    dirty: bool = True,
    branch: str = "main",
) -> Path:
    """Build the fixture project in ``folder`` (created, must be empty) and return it.

    ``commits`` (>= 1) commits on ``main``; ``branch`` is checked out
    (``main`` or ``feature/checkout``); ``dirty`` leaves uncommitted work.
    """
    if commits < 1:
        raise ValueError("commits must be at least 1")
    folder.mkdir(parents=True, exist_ok=True)
    if any(folder.iterdir()):
        raise ValueError(f"{folder} is not empty")
    _git(folder, "init", "-q", "-b", "main")
    _git(folder, "config", "user.name", AUTHORS[0][0])
    _git(folder, "config", "user.email", AUTHORS[0][1])
    _git(folder, "config", "commit.gpgsign", "false")
    _git(folder, "fast-import", "--quiet", stdin=history_stream(commits, end))
    _git(folder, "checkout", "-q", "-f", branch)
    if dirty:
        _make_dirty(folder)
    return folder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--commits", type=int, default=1000)
    parser.add_argument("--clean", action="store_true", help="leave no uncommitted work")
    args = parser.parse_args()
    root = build_project(args.folder, args.commits, dirty=not args.clean)
    print(f"built {root} with {args.commits} commits on main")


if __name__ == "__main__":
    main()
