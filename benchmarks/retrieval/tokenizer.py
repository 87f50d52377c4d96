"""Tokenizer speed: import cost of ``search.tokenize`` and analysis time per text.

Run: ``python -m benchmarks.retrieval.tokenizer [--rounds 200] [--imports 15]``.
Measures what the tokenizer tests used to assert with a clock (tests hold no
timed asserts): the import of ``toon_memory.search.tokenize`` in a fresh
process (its own cumulative time in ``python -X importtime``, whoever imports
it first, so the package ``__init__`` above it is not counted; budget 50 ms; PyStemmer stays unloaded until the first word is
stemmed), and ``document_terms`` / ``query_groups`` on a ~1,500-character
English note, warm (budget 10 ms per text), plus the first call in a fresh
process (loads PyStemmer, fills the caches). Each timing is the median over
rounds; the last column compares it with the budget.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from collections.abc import Callable

from benchmarks.retrieval.common import print_table

TEXT = "The RedisClient connection pool times out under load; see src/cache/redis.ts " * 20
QUERY = "why does the redis connection pool time out under load"
IMPORT_BUDGET_MS = 50.0
CALL_BUDGET_MS = 10.0
TOKENIZE = "toon_memory.search.tokenize"
_FIRST = (
    "import time, toon_memory.search.tokenize as tk; t = time.perf_counter();"
    f"tk.document_terms({TEXT!r}); print(time.perf_counter() - t)"
)


def _fresh(code: str, rounds: int) -> float:
    """Median seconds printed by ``code`` over ``rounds`` fresh interpreters."""
    times = []
    for _ in range(rounds):
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              check=True)  # fmt: skip
        times.append(float(done.stdout))
    return statistics.median(times)


def _import_cost(module: str, rounds: int) -> float:
    """Median import seconds of ``module`` itself in fresh interpreters (``-X importtime``)."""
    times = []
    for _ in range(rounds):
        done = subprocess.run([sys.executable, "-X", "importtime", "-c", f"import {module}"],
                              capture_output=True, text=True, check=True)  # fmt: skip
        times.append(own_cost(done.stderr, module))
    return statistics.median(times)


def own_cost(report: str, module: str) -> float:
    """Seconds ``module`` took to import, without its parent packages nested under it.

    ``-X importtime`` prints children before their parent, indented two more
    spaces; ``import a.b.c`` imports ``a`` and ``a.b`` as children of ``a.b.c``
    when they are not loaded yet. The first line naming ``module`` is its import.
    """
    rows: list[tuple[int, str, int]] = []
    for line in report.splitlines():
        parts = line.split("|")
        if len(parts) != 3 or not parts[1].strip().isdigit():
            continue
        name = parts[2].rstrip()
        rows.append(((len(name) - len(name.lstrip())) // 2, name.strip(), int(parts[1])))
    at = next(i for i, row in enumerate(rows) if row[1] == module)
    depth, _, total = rows[at]
    parents = {module.rsplit(".", n)[0] for n in range(1, module.count(".") + 1)}
    for child_depth, name, cumulative in reversed(rows[:at]):
        if child_depth <= depth:
            break
        if child_depth == depth + 1 and name in parents:
            total -= cumulative
    return total / 1e6


def _warm(call: Callable[[], object], rounds: int) -> float:
    call()
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _row(what: str, seconds: float, budget_ms: float | None) -> list[object]:
    ms = seconds * 1000
    verdict = "" if budget_ms is None else f"{ms / budget_ms:.0%} of {budget_ms:g} ms"
    return [what, f"{ms:.3f}", verdict]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=200, help="warm calls per timing")
    parser.add_argument("--imports", type=int, default=15, help="fresh processes per timing")
    args = parser.parse_args(argv)
    from toon_memory.search.tokenize import document_terms, query_groups

    rows = [
        _row("import search.tokenize (fresh process)", _import_cost(TOKENIZE, args.imports),
             IMPORT_BUDGET_MS),
        _row("first document_terms (fresh process)", _fresh(_FIRST, args.imports), None),
        _row(f"document_terms, {len(TEXT)} chars, warm", _warm(lambda: document_terms(TEXT),
             args.rounds), CALL_BUDGET_MS),
        _row("query_groups, 10 words, warm", _warm(lambda: query_groups(QUERY), args.rounds),
             CALL_BUDGET_MS),
    ]  # fmt: skip
    print("Tokenizer (median ms)\n")
    print_table(["what", "ms", "vs budget"], rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
