"""The published surface of every MCP tool: names, parameters, annotations, output schemas.

Invariant: pure data, no I/O and no ``mcp`` import. Each parameter is
published under exactly one spelling (snake_case); ``Param.spellings`` lists
the others a handler also accepts (camelCase and a few legacy names).
Schemas carry no titles and descriptions stay short: ``tools/list`` is paid
for in every agent's context on every session.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from toon_memory.model.entry import RECALL_BUDGETS


def camel(name: str) -> str:
    """``path_scope`` -> ``pathScope``."""
    first, *rest = name.split("_")
    return first + "".join(part.capitalize() for part in rest)


@dataclass(frozen=True, slots=True)
class Cli:
    """How a parameter appears on the command line (beside its ``--name`` option).

    ``help`` replaces the short MCP ``doc``; ``flags`` are extra spellings
    (``-n``, or an old name kept as an alias); ``argument`` makes it
    positional (``metavar`` names it in the usage line); ``default`` is a
    CLI default other than the ``Memory`` method's own (``...``: the
    method's, read from its signature); ``show_default`` prints the default
    in ``--help``; ``only``: a CLI option that MCP does not publish;
    ``choice=False`` takes any text for an enum (the ``Memory`` method checks it);
    ``words``: a positional argument of one or more words, joined by spaces
    (a ``many`` argument passes them as a list, omitted when none); ``fixed``:
    not on the command line, the command always passes ``default`` (one tool,
    several commands: ``state show|set|add|clear`` fix ``action``); ``envvar``:
    an environment variable that gives the option when it is not on the line;
    ``off``: the flag that sets a boolean false, instead of ``--no-<name>``
    (``--apply`` for ``dry_run``: the option reads ``--dry-run/--apply``).
    """

    help: str = ""
    flags: tuple[str, ...] = ()
    argument: bool = False
    metavar: str = ""
    default: Any = ...
    show_default: bool = False
    only: bool = False
    choice: bool = True
    words: bool = False
    off: str = ""
    fixed: bool = False
    envvar: str = ""


@dataclass(frozen=True, slots=True)
class Param:
    """One tool parameter. ``kind``: string, integer, number or boolean.

    ``many`` strings also accept a JSON array of strings. ``cli`` says how
    the parameter appears on the command line (``adapters.cli.declared``);
    with ``cli.only`` it is a CLI option only, not published over MCP.
    """

    name: str
    kind: str = "string"
    doc: str = ""
    enum: tuple[Any, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    many: bool = False
    aliases: tuple[str, ...] = ()
    cli: Cli | None = None

    def on_cli(self, **changes: Any) -> Param:
        """This parameter with its command-line form set (``Cli(**changes)``)."""
        return replace(self, cli=Cli(**changes))

    def only_on_cli(self) -> Param:
        """This parameter as a CLI option only (MCP does not publish it)."""
        return replace(self, cli=replace(self.cli or Cli(), only=True))

    @property
    def spellings(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys((self.name, camel(self.name), *self.aliases)))

    def schema(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.kind}
        if self.enum:
            out["enum"] = list(self.enum)
        if self.minimum is not None:
            out["minimum"] = self.minimum
        if self.maximum is not None:
            out["maximum"] = self.maximum
        if self.doc:
            out["description"] = self.doc
        return out


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """A tool: its description, parameters, annotations and (for data) output schema.

    A call is ``Memory.<method>(**arguments)`` (``method`` may be dotted, e.g.
    ``context.brief`` for ``memory.context.brief``) with each published
    parameter passed under its own name, or under ``rename[name]`` where the
    ``Memory`` parameter is spelled otherwise; ``render`` names the renderer
    (``module.function`` in ``toon_memory.render``) that turns the result
    into text and data. ``command`` names the CLI command built from this
    same spec (``adapters.cli.declared``; ``help`` is its ``--help`` text;
    ``group name`` for a subcommand), "" when the CLI has none or writes its own.
    """

    name: str
    doc: str
    params: tuple[Param, ...] = ()
    required: tuple[str, ...] = ()
    read_only: bool = False
    destructive: bool = False
    idempotent: bool = False
    open_world: bool = False
    output: dict[str, Any] | None = None
    rename: dict[str, str] = field(default_factory=dict)
    method: str = ""
    render: str = ""
    command: str = ""
    help: str = ""

    def __post_init__(self) -> None:
        if not self.method or not self.render:
            raise ValueError(f"{self.name}: a spec names its Memory method and its renderer")

    @property
    def published(self) -> tuple[Param, ...]:
        """The parameters MCP publishes (all but the CLI-only ones), in order."""
        return tuple(p for p in self.params if p.cli is None or not p.cli.only)

    @property
    def fields(self) -> dict[str, str]:
        """A ``Memory`` error field -> the published parameter name."""
        return {inner: published for published, inner in self.rename.items()}

    def call_arguments(self, arguments: dict[str, Any]) -> dict[str, Any]:
        """Checked published arguments -> keyword arguments of ``Memory.<method>``."""
        return {self.rename.get(name, name): value for name, value in arguments.items()}

    def input_schema(self) -> dict[str, Any]:
        schema: dict[str, Any] = {
            "type": "object",
            "properties": {p.name: p.schema() for p in self.published},
        }
        if self.required:
            schema["required"] = list(self.required)
        return schema

    def annotations(self) -> dict[str, bool]:
        return {
            "readOnlyHint": self.read_only,
            "destructiveHint": self.destructive,
            "idempotentHint": self.idempotent,
            "openWorldHint": self.open_world,
        }


def obj_schema(**props: Any) -> dict[str, Any]:
    return {"type": "object", "properties": props}


ARRAY: dict[str, Any] = {"type": "array"}
RESULTS = obj_schema(results=ARRAY)
STATS = obj_schema(total={"type": "integer"}, active={"type": "integer"})
DIFF = obj_schema(since={"type": "string"}, created=ARRAY, updated=ARRAY)
PATH = obj_schema(path=ARRAY)

# -- shared parameters ----------------------------------------------------------------
#: A credential in the text refuses the write unless this is true (no doc: tools/list budget).
ALLOW_SECRETS_HELP = "Keep text that looks like a credential (refused by default)."
ALLOW_SECRETS = Param("allow_secrets", "boolean").on_cli(help=ALLOW_SECRETS_HELP)
KEY = Param("key", doc="Entry key or id")
LIMIT = Param("limit", "integer", "Max results", minimum=1)
HOPS = Param("hops", "integer", "Graph depth", enum=(1, 2))
BUDGET = Param("budget", enum=RECALL_BUDGETS, doc="tiny: top 3, one line each")
BUDGET_TOKENS = Param("budget_tokens", "integer", "Cap output tokens (0: none)", minimum=0)
EXPLAIN = Param("explain", "boolean", "Add a why line per entry")
SESSION_BIAS = Param("session_bias", "boolean", "Boost files changed on this branch")
PATH_SCOPE = Param("path_scope", doc="File being worked on (glob)")
FROM_DATE = Param("from_date", doc="YYYY-MM-DD (archive included)")
TO_DATE = Param("to_date", doc="YYYY-MM-DD")
TAGS = Param("tags", doc="a;b", many=True)
