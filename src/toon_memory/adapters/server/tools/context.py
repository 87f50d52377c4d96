"""The context tools: one call that replaces the five or six an agent would make.

Invariant: pure data (no I/O, no ``mcp``); every enum is a core constant.
Each tool takes ``budget_tokens`` (default 1,500, 0 = no limit, see
``context.limits``) and answers markdown text only (no output schema).
"""

from __future__ import annotations

from toon_memory.adapters.server.specs import Param, ToolSpec

#: The numbers are ``rules.budgets``' (a test ties them; importing it here would put
#: the context package on the server's start-up path). On the CLI the default shown is
#: the ``Memory.context`` method's own.
BRIEF_BUDGET = Param("budget_tokens", "integer", "Max tokens (1500; 0: none; min 50)",
                     minimum=0).on_cli(
    help="Most tokens of output; the lowest-value lines are cut first (0 = no limit).",
    show_default=True,
)  # fmt: skip


CONTEXT: tuple[ToolSpec, ...] = (
    ToolSpec(
        "context_brief",
        "Session-start brief in one call: memory counts and top entries, active sessions and "
        "conflicts, health score. Markdown.",
        (BRIEF_BUDGET,), read_only=True, idempotent=True,
        method="context.brief", render="briefs.briefed", command="context brief",
        help="Memory, active sessions and health in one compact brief.",
    ),
    ToolSpec(
        "context_generate",
        "Full project briefing: name, package manager, languages, git state, memory, sessions.",
        (BRIEF_BUDGET,), read_only=True, idempotent=True,
        method="context.generate", render="briefs.generated", command="context generate",
        help="Full project briefing: project, git, memory, sessions.",
    ),
    ToolSpec(
        "context_diff",
        "Changes since the last session (or since): commits, files, memories, sessions.",
        (Param("since", doc="24h, 7d or YYYY-MM-DD").on_cli(
            help="24h, 7d or YYYY-MM-DD (default: the last session)."), BRIEF_BUDGET),
        read_only=True, idempotent=True, method="context.diff", render="briefs.diffed",
        command="context diff",
        help="What changed since the last session: commits, files, memories, sessions.",
    ),
    ToolSpec(
        "context_focus",
        "What matters for a task: matching memories, files they name, callers, tests.",
        (Param("query", doc="Task, symbol or file").on_cli(argument=True, words=True),
         BRIEF_BUDGET), required=("query",),
        read_only=True, idempotent=True, method="context.focus", render="briefs.focused",
        command="context focus",
        help="What is relevant to QUERY (a task, symbol or file): memories, files, callers, tests.",
    ),
    ToolSpec(
        "context_health",
        "Memory health score 0-100 and its findings: orphan links, duplicates, missing files, "
        "expired TTLs, stale claims and sessions.",
        (BRIEF_BUDGET,), read_only=True, idempotent=True,
        method="context.health", render="briefs.audited", command="context health",
        help="Health score 0-100 and the findings behind it.",
    ),
    ToolSpec(
        "context_export",
        "The memory as markdown for a system prompt, best entries first.",
        (Param("compact", "boolean", "One line per entry").on_cli(help="One line per entry."),
         BRIEF_BUDGET), read_only=True,
        idempotent=True, method="context.export", render="briefs.exported",
        command="context export",
        help="The memory as markdown for a system prompt, best entries first.",
    ),
)  # fmt: skip
