"""A self-contained demo: remember a few memories in a fresh project and recall them.

Invariant: works only inside the folder it is given; it never touches the
user's own projects or global store.
"""

from __future__ import annotations

from pathlib import Path

DEMO_ENTRIES: tuple[tuple[str, str, str, str], ...] = (
    (
        "decision",
        "use-zod",
        "Use Zod schemas for all API validation; shared in src/types.ts",
        "validation;types",
    ),
    (
        "bug",
        "redis-pool-timeout",
        "Redis connection timeout under load: raised max_connections to 20",
        "",
    ),
    (
        "warning",
        "no-raw-sql",
        "Never build SQL with string concatenation: use the query builder",
        "db;security",
    ),
    (
        "pattern",
        "api-error-shape",
        "API errors return {code, message}; see [[use-zod]] for validation errors",
        "api",
    ),
    (
        "knowledge",
        "deploy-flow",
        "Deploys run from main through the CI pipeline, then a manual approval",
        "",
    ),
)


def run_demo(folder: Path) -> str:
    from toon_memory.memory.api import Memory
    from toon_memory.render.recall import render_recall

    folder.mkdir(parents=True, exist_ok=True)
    (folder / ".git").mkdir(exist_ok=True)
    memory = Memory(folder)
    lines = [f"Demo project: {folder}", ""]
    for category, key, content, tags in DEMO_ENTRIES:
        result = memory.remember(category, key, content, tags=tags or None, origin="human")
        lines.append(
            f"remembered {category}/{key} ({result.entry.id}) tags={';'.join(result.entry.tags)}"
        )
    memory.compact()
    for query in ("redis timeout", "how do we validate API input?"):
        lines += [
            "",
            f"$ toon-memory recall {query!r}",
            render_recall(memory.recall(query, limit=3)),
        ]
    lines += ["", f"Memory file: {memory.paths.data}"]
    return "\n".join(lines)
