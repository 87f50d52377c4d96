"""Renderers of the team database's results: ``team init`` and the token commands.

Invariant: the CLI shows these results only through the functions here, each
``(result, call) -> Rendered``. A token's text appears in one place only, the last line
of ``token_created``'s text (and its data's ``token``), so a script reads it with
``tail -n 1``; no other renderer has it to show. Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from toon_memory.render.results import Rendered

if TYPE_CHECKING:
    from toon_memory.memory.team import Migration, NewToken, TokenInfo

Call = Mapping[str, Any]


def migrated(result: Migration, call: Call) -> Rendered:
    """The schema version before and after ``team init``."""
    if result.changed:
        text = f"🗄️ team database schema: version {result.before} -> {result.after}"
    else:
        text = f"🗄️ team database schema: version {result.after}, already current"
    return Rendered(text, {"before": result.before, "after": result.after})


def _scope(info: TokenInfo) -> str:
    return f"project {info.project}" if info.project else "every project"


def token_created(result: NewToken, call: Call) -> Rendered:
    """The new token's row, then (last line) the token itself, shown this once."""
    info = result.info
    text = (
        f"🔑 token {info.name!r}: role {info.role}, {_scope(info)}. It is shown once, "
        "here; it is stored only as a digest (revoke it and create another if it is lost):\n"
        f"{result.token}"
    )
    return Rendered(text, {**info.to_dict(), "token": result.token})


def token_list(result: list[TokenInfo], call: Call) -> Rendered:
    """One line per token: name, role, project, created, revoked."""
    if not result:
        return Rendered("No tokens yet (team token create NAME --role ROLE).", [])
    lines = []
    for info in result:
        state = f"revoked {info.revoked}" if info.revoked else "live"
        lines.append(f"{info.name}\t{info.role}\t{info.project or '*'}\t{info.created}\t{state}")
    return Rendered("\n".join(lines), [info.to_dict() for info in result])


def token_revoked(result: TokenInfo, call: Call) -> Rendered:
    return Rendered(
        f"🚫 token {result.name!r} revoked ({result.revoked}); it is refused from now on",
        result.to_dict(),
    )
