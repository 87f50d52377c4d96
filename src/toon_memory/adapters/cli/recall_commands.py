"""Recall CLI commands: recall, search, smart-recall, suggest, path.

Invariant: each is one ``Memory`` call plus one shared renderer; ``--json``
prints the structured result (``{"results": [...]}`` in rank order),
otherwise the token-lean text. Collected in ``COMMANDS`` for ``cli.main``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from toon_memory.adapters.cli.invocation import Context, handles_errors, json_option, pass_ctx, show
from toon_memory.model.entry import RECALL_BUDGETS, RECALL_MODES
from toon_memory.render import results as render

if TYPE_CHECKING:
    from toon_memory.search import RecallResult


def _show(result: RecallResult, as_json: bool) -> None:
    show(render.recalled(result, {}), as_json)


def recall_options(func: Any) -> Any:
    """Options shared by recall-like commands."""
    for decorator in reversed([
        click.option("--limit", "-n", type=int, default=None, help="Most results to return."),
        click.option("--budget", type=click.Choice(RECALL_BUDGETS), default="normal",
                     help="tiny: key + one line; deep: every field."),
        click.option("--budget-tokens", type=int, default=0, help="Stop adding entries past this many tokens (0 = no limit)."),
        click.option("--explain", is_flag=True, help="Add a reason line per result."),
        click.option("--session-bias", is_flag=True, help="Boost entries whose file changed on this git branch."),
        click.option("--path-scope", default="", help="The file being worked on (boosts matching path_scope)."),
        click.option("--from-date", default="", help="Only entries dated on/after YYYY-MM-DD (archive included)."),
        click.option("--to-date", default="", help="Only entries dated on/before YYYY-MM-DD (archive included)."),
    ]):  # fmt: skip
        func = decorator(func)
    return func


@click.command()
@click.argument("query", default="")
@click.option("--mode", type=click.Choice(RECALL_MODES), default="flat", show_default=True)
@click.option(
    "--hops",
    type=int,
    default=None,
    help="Graph expansion depth, 1 or 2 (default 2 in graph mode).",
)
@click.option("--ids", default="", help="Fetch these ids or keys, in this order.")
@click.option("--compact", is_flag=True, help="Numbered, denser output.")
@click.option("--no-rrf", "no_rrf", is_flag=True, help="Use the linear score instead of RRF.")
@click.option("--as-of", default="", help="Recall as of a date YYYY-MM-DD (brings back superseded "
              "versions, as far back as the kept history: the newest 20 versions per key, "
              "historyVersions in config.json).")  # fmt: skip
@recall_options
@json_option
@pass_ctx
@handles_errors
def recall(ctx: Context, /, query: str, mode: str, hops: int | None, ids: str, compact: bool,
           no_rrf: bool, as_of: str, limit: int | None, budget: str, budget_tokens: int,
           explain: bool, session_bias: bool, path_scope: str, from_date: str, to_date: str,
           as_json: bool) -> None:  # fmt: skip
    """Find the entries that matter for QUERY, best first.

    QUERY may say when ("latest release", "the SLA before June", "as of
    2026-03-01", "first audit", "what did we use previously") and name a file
    ("before editing src/api/auth.py"); words in Spanish, Portuguese, French
    or German find English entries and the other way round.
    """
    result = ctx.memory.recall(
        query, mode=mode, hops=hops, ids=ids or None, compact=compact, rrf=not no_rrf,
        as_of=as_of, limit=limit, budget=budget, budget_tokens=budget_tokens, explain=explain,
        session_bias=session_bias, path_scope=path_scope, from_date=from_date, to_date=to_date,
    )  # fmt: skip
    _show(result, as_json)


@click.command()
@click.argument("query", default="")
@click.option("--category", default="", help="Only this category.")
@click.option("--tags", default="", help='Entries must carry all these tags (";" or ",").')
@recall_options
@json_option
@pass_ctx
@handles_errors
def search(ctx: Context, /, query: str, category: str, tags: str, limit: int | None,
           budget: str, budget_tokens: int, explain: bool, session_bias: bool, path_scope: str,
           from_date: str, to_date: str, as_json: bool) -> None:  # fmt: skip
    """Recall with filters (category, tags, dates, path scope)."""
    result = ctx.memory.recall(
        query, category=category, tags=tags, limit=limit, budget=budget,
        budget_tokens=budget_tokens, explain=explain, session_bias=session_bias,
        path_scope=path_scope, from_date=from_date, to_date=to_date,
    )  # fmt: skip
    _show(result, as_json)


@click.command(name="smart-recall")
@click.argument("intent")
@click.option("--hops", type=int, default=2, show_default=True)
@click.option("--explain", is_flag=True)
@click.option("--budget-tokens", type=int, default=0)
@click.option(
    "--no-session-bias", "no_bias", is_flag=True, help="Do not boost this branch's files."
)
@json_option
@pass_ctx
@handles_errors
def smart_recall(ctx: Context, intent: str, hops: int, explain: bool, budget_tokens: int,
                 no_bias: bool, as_json: bool) -> None:  # fmt: skip
    """One call: BM25 + graph + quality + freshness."""
    result = ctx.memory.smart_recall(intent, hops=hops, explain=explain,
                                     budget_tokens=budget_tokens, session_bias=not no_bias)  # fmt: skip
    _show(result, as_json)


@click.command()
@click.argument("context")
@click.option("--limit", "-n", type=int, default=5, show_default=True)
@json_option
@pass_ctx
@handles_errors
def suggest(ctx: Context, context: str, limit: int, as_json: bool) -> None:
    """Entries related to a free-text context."""
    show(render.suggested(ctx.memory.suggest(context, limit=limit), {"context": context}), as_json)


@click.command()
@click.argument("from_key")
@click.argument("to_key")
@json_option
@pass_ctx
@handles_errors
def path(ctx: Context, from_key: str, to_key: str, as_json: bool) -> None:
    """The shortest chain of links between two entries."""
    entries = ctx.memory.graph_path(from_key, to_key)
    show(render.path_found(entries, {"from_key": from_key, "to_key": to_key}), as_json)


@click.command()
@click.option("--limit", "-n", type=int, default=10, show_default=True, help="Top entries to list.")
@click.option("--budget-tokens", type=int, default=1500, show_default=True,
              help="Most tokens of output; the lowest-value lines are cut first (0 = no limit).")  # fmt: skip
@json_option
@pass_ctx
@handles_errors
def primer(ctx: Context, limit: int, budget_tokens: int, as_json: bool) -> None:
    """What a session starts with: categories, top entries, patterns, warnings, decisions,
    files changed in this session."""
    call = {"limit": limit, "budget_tokens": budget_tokens}
    show(render.primed(ctx.memory.primer(limit, budget_tokens), call), as_json)


COMMANDS: tuple[click.Command, ...] = (recall, search, smart_recall, suggest, path, primer)
