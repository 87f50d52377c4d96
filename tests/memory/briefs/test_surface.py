"""The published numbers of the context tools are ``context.limits``' (restated only where
importing it would load the context package at start-up, and tied here)."""

from __future__ import annotations

import subprocess
import sys

import click

from toon_memory.adapters.cli.main import cli
from toon_memory.adapters.server.tools import BY_NAME
from toon_memory.rules.budgets import DEFAULT_BUDGET_TOKENS, MAX_PRIMER_LIMIT, MIN_BUDGET_TOKENS

CONTEXT_TOOLS = ("context_brief", "context_generate", "context_diff", "context_focus",
                 "context_health", "context_export", "memory_primer")  # fmt: skip


def test_budget_docs_and_bounds_are_the_limits() -> None:
    for name in CONTEXT_TOOLS:
        param = next(p for p in BY_NAME[name].params if p.name == "budget_tokens")
        assert param.kind == "integer" and param.minimum == 0
        assert f"({DEFAULT_BUDGET_TOKENS};" in param.doc and f"min {MIN_BUDGET_TOKENS}" in param.doc
    limit = next(p for p in BY_NAME["memory_primer"].params if p.name == "limit")
    assert (limit.minimum, limit.maximum) == (1, MAX_PRIMER_LIMIT)


def test_cli_defaults_are_the_limits() -> None:
    group = cli.commands["context"]
    assert sorted(group.commands) == ["brief", "diff", "export", "focus", "generate", "health"]  # type: ignore[attr-defined]
    for command in [*group.commands.values(), cli.commands["primer"]]:  # type: ignore[attr-defined]
        option = next(p for p in command.params if p.name == "budget_tokens")
        assert option.get_default(click.Context(command)) == DEFAULT_BUDGET_TOKENS, command.name


def test_the_server_starts_without_the_context_package() -> None:
    code = ("import sys; import toon_memory.adapters.server.app; "
            "print(sorted(m for m in sys.modules if m.startswith('toon_memory.memory.briefs')))")  # fmt: skip
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
