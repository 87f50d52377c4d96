"""The sharing tools (global store and GitHub Gist).

Invariant: pure data (no I/O, no ``mcp``); every enum is a core constant;
each tool calls a method of ``Memory.sharing`` and declares its CLI command
(``command``, ``help``, ``Param.cli``: ``global export|import``, ``gist export|import``).
"""

from __future__ import annotations

from dataclasses import replace

from toon_memory.adapters.server.specs import ALLOW_SECRETS as WRITE_ALLOW_SECRETS
from toon_memory.adapters.server.specs import Param, ToolSpec

#: ``specs.ALLOW_SECRETS``, said for a copy: entries holding a credential are skipped
#: (and reported) unless this is true.
ALLOW_SECRETS = replace(WRITE_ALLOW_SECRETS, doc="Keep entries holding a credential")
#: Merge by default; on the CLI ``--replace`` sets it false (``--merge/--replace``).
MERGE = Param("merge", "boolean", "false: replace").on_cli(
    help="--replace replaces this project's entries (a backup is kept) instead of merging.",
    off="--replace",
)

SHARING: tuple[ToolSpec, ...] = (
    ToolSpec(
        "memory_export_global",
        "Merge this project's memory into the global one (~/.toon-memory) for other projects.",
        (ALLOW_SECRETS,),
        idempotent=True,
        method="sharing.export_global",
        render="sharing.global_exported",
        command="global export",
        help="Merge this project's memory into the global memory.",
    ),
    ToolSpec(
        "memory_import_global",
        "Bring global memories into this project: merge (default) or merge=false to replace "
        "(backup kept).",
        (MERGE, ALLOW_SECRETS),
        destructive=True,
        idempotent=True,
        method="sharing.import_global",
        render="sharing.global_imported",
        command="global import",
        help="Merge the global memory into this project (or replace it with --replace).",
    ),
    ToolSpec(
        "memory_export_gist",
        "Upload this memory to a GitHub Gist (secret unless public); later exports update it.",
        (Param("public", "boolean").on_cli(help="Create a public gist (default: secret)."),),
        idempotent=True,
        open_world=True,
        method="sharing.export_gist",
        render="sharing.gist_exported",
        command="gist export",
        help="Upload this memory to a Gist; the gist id is remembered, so later exports update it.",
    ),
    ToolSpec(
        "memory_import_gist",
        "Merge a memory exported to a GitHub Gist into this one.",
        (Param("id", doc="Gist id or URL").on_cli(argument=True, metavar="ID"), ALLOW_SECRETS),
        required=("id",),
        rename={"id": "gist_id"},
        open_world=True,
        method="sharing.import_gist",
        render="sharing.gist_imported",
        command="gist import",
        help="Merge the memory of Gist ID (an id or a gist URL) into this one.",
    ),
)
