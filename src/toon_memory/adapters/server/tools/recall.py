"""The recall tools (recall, smart recall, search, suggest, graph path, primer), MCP and CLI.

Invariant: pure data (no I/O, no ``mcp``, no click); each spec is the one
declaration of a tool and of its CLI command (``command``, ``help``,
``Param.cli``): the MCP schema, the click options and the ``tools/list``
snapshot are all built from it. Defaults are the ``Memory`` methods'
(``Cli.default`` only where the CLI's differs). Every enum is a core constant.
"""

from __future__ import annotations

from toon_memory.adapters.server.specs import (
    BUDGET,
    BUDGET_TOKENS,
    EXPLAIN,
    FROM_DATE,
    HOPS,
    LIMIT,
    PATH,
    PATH_SCOPE,
    RESULTS,
    SESSION_BIAS,
    TAGS,
    TO_DATE,
    Param,
    ToolSpec,
)
from toon_memory.model.entry import CATEGORIES, RECALL_MODES

#: The options every recall-like command shares, in their CLI form.
CLI_LIMIT = LIMIT.on_cli(help="Most results to return.", flags=("-n",))
CLI_BUDGET = BUDGET.on_cli(help="tiny: key + one line; deep: every field.")
CLI_BUDGET_TOKENS = BUDGET_TOKENS.on_cli(
    help="Stop adding entries past this many tokens (0 = no limit)."
)
CLI_EXPLAIN = EXPLAIN.on_cli(help="Add a reason line per result.")
CLI_SESSION_BIAS = SESSION_BIAS.on_cli(help="Boost entries whose file changed on this git branch.")
CLI_PATH_SCOPE = PATH_SCOPE.on_cli(help="The file being worked on (boosts matching path_scope).")
CLI_FROM = FROM_DATE.on_cli(help="Only entries dated on/after YYYY-MM-DD (archive included).")
CLI_TO = TO_DATE.on_cli(help="Only entries dated on/before YYYY-MM-DD (archive included).")

RECALL = ToolSpec(
    "memory_recall",
    "Search memory before reading files. mode graph follows links, index lists one line "
    "per entry; ids fetches in order; as_of adds superseded versions.",
    (
        Param("query").on_cli(argument=True),
        Param("mode", enum=RECALL_MODES).on_cli(show_default=True),
        HOPS.on_cli(help="Graph expansion depth, 1 or 2 (default 2 in graph mode)."),
        CLI_LIMIT,
        Param("ids", doc="Ids or keys, comma separated", many=True).on_cli(
            help="Fetch these ids or keys, in this order."
        ),
        CLI_BUDGET,
        Param("compact", "boolean", "Denser output").on_cli(help="Numbered, denser output."),
        CLI_BUDGET_TOKENS,
        CLI_EXPLAIN,
        Param("rrf", "boolean", "false: linear score").on_cli(
            help="Fuse the rankings by RRF (--no-rrf: the linear score instead)."
        ),
        CLI_SESSION_BIAS,
        CLI_PATH_SCOPE,
        Param("as_of", doc="YYYY-MM-DD").on_cli(
            help="Recall as of a date YYYY-MM-DD (brings back superseded versions, as far back "
            "as the kept history: the newest 20 versions per key, historyVersions in "
            "config.json)."
        ),
        CLI_FROM,
        CLI_TO,
    ),
    read_only=True,
    idempotent=True,
    output=RESULTS,
    method="recall",
    render="results.recalled",
    command="recall",
    help="""Find the entries that matter for QUERY, best first.

    QUERY may say when ("latest release", "the SLA before June", "as of
    2026-03-01", "first audit", "what did we use previously") and name a file
    ("before editing src/api/auth.py"); words in Spanish, Portuguese, French
    or German find English entries and the other way round.
    """,
)

SMART_RECALL = ToolSpec(
    "memory_smart_recall",
    "Best first call of a task: BM25 + graph + quality + freshness in one.",
    (
        Param("intent", doc="What you are about to do").on_cli(argument=True),
        HOPS.on_cli(show_default=True),
        EXPLAIN,
        BUDGET_TOKENS,
        Param("session_bias", "boolean", "Boost branch files (default true)").on_cli(
            help="Boost this branch's files (--no-session-bias: do not)."
        ),
        CLI_LIMIT,
    ),
    required=("intent",),
    read_only=True,
    idempotent=True,
    output=RESULTS,
    method="smart_recall",
    render="results.recalled",
    command="smart-recall",
    help="One call: BM25 + graph + quality + freshness.",
)

SEARCH = ToolSpec(
    "memory_search",
    "Recall with filters: category, tags (all must match), dates, path scope.",
    (
        Param("query").on_cli(argument=True),
        Param("category", enum=CATEGORIES).on_cli(help="Only this category.", choice=False),
        TAGS.on_cli(help='Entries must carry all these tags (";" or ",").'),
        CLI_FROM,
        CLI_TO,
        CLI_PATH_SCOPE,
        CLI_BUDGET,
        CLI_SESSION_BIAS,
        CLI_LIMIT,
        CLI_BUDGET_TOKENS.only_on_cli(),
        CLI_EXPLAIN.only_on_cli(),
    ),
    read_only=True,
    idempotent=True,
    output=RESULTS,
    method="search",
    render="results.recalled",
    command="search",
    help="Recall with filters (category, tags, dates, path scope).",
)

SUGGEST = ToolSpec(
    "memory_suggest",
    "Entries related to a free-text context (ranked by its most distinctive words).",
    (
        Param("context").on_cli(argument=True),
        Param("limit", "integer", "Max results (5)", minimum=1).on_cli(
            help=CLI_LIMIT.cli.help if CLI_LIMIT.cli else "", flags=("-n",), show_default=True
        ),
    ),
    required=("context",),
    read_only=True,
    idempotent=True,
    output=RESULTS,
    method="suggest",
    render="results.suggested",
    command="suggest",
    help="Entries related to a free-text context (ranked by its most distinctive words).",
)

GRAPH_PATH = ToolSpec(
    "memory_graph_path",
    "Shortest chain of links between two entries.",
    (
        Param("from_key", aliases=("from",)).on_cli(argument=True),
        Param("to_key", aliases=("to",)).on_cli(argument=True),
    ),
    required=("from_key", "to_key"),
    read_only=True,
    idempotent=True,
    output=PATH,
    method="graph_path",
    render="results.path_found",
    command="path",
    help="The shortest chain of links between two entries.",
)

PRIMER = ToolSpec(
    "memory_primer",
    "Session start: top entries, patterns, warnings, decisions, files changed.",
    (
        Param("limit", "integer", "Top entries (10)", minimum=1, maximum=100).on_cli(
            help="Top entries to list.", flags=("-n",), show_default=True
        ),
        Param("budget_tokens", "integer", "Max tokens (1500; 0: none; min 50)", minimum=0).on_cli(
            help="Most tokens of output; the lowest-value lines are cut first (0 = no limit).",
            show_default=True,
        ),
    ),
    read_only=True,
    idempotent=True,
    method="primer",
    render="results.primed",
    command="primer",
    help="What a session starts with: categories, top entries, patterns, warnings, decisions,\n"
    "    files changed in this session.",
)

#: The recall tools, in the order their CLI commands are listed.
RECALL_TOOLS: tuple[ToolSpec, ...] = (RECALL, SEARCH, SMART_RECALL, SUGGEST, GRAPH_PATH, PRIMER)
