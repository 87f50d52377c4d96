"""CLI commands built from the MCP tool declarations (``adapters.server.tools``).

Invariant: a declared command's parameters are exactly its ``ToolSpec``'s
(``Param.cli`` says how each looks on the command line: option or argument,
extra flags, help), in declaration order, plus ``--json``; it runs what the
MCP tool runs (``handlers.run_tool``: ``Memory.<spec.method>`` under the
published names, ``spec.rename`` applied, then ``spec.render``) and passes
only the values the user gave, so every default is the ``Memory`` method's
own, read from its signature (lazily, for ``--help``) unless ``Cli.default``
sets a CLI one (a ``Cli.fixed`` one is always passed and not on the
command line). A boolean is ``--flag/--no-flag``, or ``--flag/<Cli.off>``
when the declaration names its off flag (``--dry-run/--apply``). A required
published parameter is a required option or argument. The commands of
``REMOTE_TOOLS`` also take ``--server``/``--token-env`` (``cli.remote``): then
the same published arguments go to that team server's tool instead. Importing this module
loads click and the pure tool data, nothing of the core.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import click
from click.core import ParameterSource

from toon_memory.adapters.cli.invocation import Invocation, handles_errors, json_option, show
from toon_memory.adapters.cli.remote import remote_from, server_options, show_remote
from toon_memory.adapters.server.specs import Cli, Param, ToolSpec

if TYPE_CHECKING:
    from toon_memory.memory.api import Memory

#: Parameter kinds -> click types (an enum of strings is a ``click.Choice``).
TYPES: dict[str, click.ParamType[Any]] = {"string": click.STRING, "integer": click.INT,
                                     "number": click.FLOAT, "boolean": click.BOOL}  # fmt: skip
PLAIN = Cli()
#: The tools whose commands can run on a team server (``--server``).
REMOTE_TOOLS = frozenset({"memory_recall", "memory_remember", "memory_primer", "memory_sessions"})


def bound_class_method(spec: ToolSpec) -> Callable[..., Any]:
    """``Memory.<spec.method>`` on the class (a part's class for a dotted name; imports the core)."""
    from toon_memory.memory.api import Memory

    target: Any = Memory
    *parts, last = spec.method.split(".")
    for part in parts:
        target = PARTS[part]()
    found: Callable[..., Any] = getattr(target, last)
    return found


def method_default(spec: ToolSpec, name: str) -> Any:
    """The default of published ``name`` in ``Memory.<spec.method>``'s signature (None: none)."""
    inner = spec.rename.get(name, name)
    found = inspect.signature(bound_class_method(spec)).parameters[inner].default
    return None if found is inspect.Parameter.empty else found


def _part(module: str, name: str) -> Callable[[], type]:
    def load() -> type:
        from importlib import import_module

        found: type = getattr(import_module(f"toon_memory.memory.{module}"), name)
        return found

    return load


#: A dotted ``ToolSpec.method``'s first name -> the class of that ``Memory`` part.
PARTS: dict[str, Callable[[], type]] = {
    "context": _part("briefs", "Briefs"),
    "sessions": _part("sessions", "Sessions"),
    "curation": _part("curation", "Curation"),
    "sharing": _part("sharing", "Sharing"),
    "security": _part("security", "Security"),
}


class DeclaredOption(click.Option):
    """An option whose shown default is the ``Memory`` method's (read when ``--help`` asks)."""

    def __init__(self, decls: list[str], spec: ToolSpec, param: Param, **attrs: Any) -> None:
        super().__init__(decls, **attrs)
        self.spec, self.param = spec, param

    def get_default(self, ctx: click.Context, call: bool = True) -> Any:
        cli = self.param.cli or PLAIN
        if cli.default is ... and cli.show_default:
            return method_default(self.spec, self.param.name)
        return super().get_default(ctx, call)


def _click_type(param: Param) -> click.ParamType[Any]:
    if param.enum and param.kind == "string" and (param.cli is None or param.cli.choice):
        return click.Choice(param.enum)
    return TYPES[param.kind]


def click_param(spec: ToolSpec, param: Param) -> click.Parameter:
    """The click option or argument of one declared parameter (not a ``Cli.fixed`` one)."""
    cli = param.cli or PLAIN
    required = param.name in spec.required and cli.default is ...
    attrs: dict[str, Any] = {} if cli.default is ... else {"default": cli.default}
    if cli.argument:
        if cli.words or param.many:
            attrs["nargs"] = -1
        return click.Argument([param.name], required=required, metavar=cli.metavar or None,
                              type=_click_type(param), **attrs)  # fmt: skip
    dashed = "--" + param.name.replace("_", "-")
    attrs.update(help=cli.help or param.doc, show_default=cli.show_default)
    if cli.envvar:
        attrs["envvar"] = cli.envvar
    if param.kind == "boolean":
        decls = [f"{dashed}/{cli.off or '--no-' + dashed[2:]}", param.name, *cli.flags]
        return DeclaredOption(decls, spec, param, **attrs)
    decls = [dashed, *cli.flags, param.name]
    return DeclaredOption(decls, spec, param, type=_click_type(param), required=required,
                          metavar=cli.metavar or None, **attrs)  # fmt: skip


def given(ctx: click.Context, spec: ToolSpec, values: dict[str, Any]) -> dict[str, Any]:
    """The published arguments of a call: what the user gave, and the CLI's own defaults."""
    out: dict[str, Any] = {}
    for param in spec.params:
        cli = param.cli or PLAIN
        if cli.fixed:
            out[param.name] = cli.default
            continue
        value = values[param.name]
        if cli.argument and param.many:  # a list; none given: the method's default
            if value:
                out[param.name] = list(value)
        elif ctx.get_parameter_source(param.name) is not ParameterSource.DEFAULT or (
            cli.default is not ...
        ):
            out[param.name] = " ".join(value) if cli.words else value
    return out


def command(spec: ToolSpec) -> click.Command:
    """The CLI command ``spec.command``: the same call and renderer as the MCP tool."""

    @handles_errors
    def run(**values: Any) -> None:
        from toon_memory.adapters.server.handlers import run_tool

        ctx = click.get_current_context()
        as_json = values.pop("as_json")
        remote = None
        if spec.name in REMOTE_TOOLS:
            remote = remote_from(values.pop("server"), values.pop("token_env"))
        if remote is not None:
            published = {p.name for p in spec.params if p.cli is None or not p.cli.only}
            arguments = {k: v for k, v in given(ctx, spec, values).items() if k in published}
            show_remote(remote, spec.name, arguments, as_json)
            return
        shared = ctx.find_object(Invocation) or Invocation(None)
        memory: Memory = shared.memory
        show(run_tool(memory, spec, given(ctx, spec, values)), as_json)

    params = [click_param(spec, p) for p in spec.params if p.cli is None or not p.cli.fixed]
    name = spec.command.split()[-1]  # ``context brief``: the ``brief`` of group ``context``
    built = json_option(click.Command(name, callback=run, params=params, help=spec.help))
    return server_options(built) if spec.name in REMOTE_TOOLS else built


def commands(specs: tuple[ToolSpec, ...]) -> tuple[click.Command, ...]:
    """The declared CLI commands of ``specs`` (those with a ``command``), in order."""
    return tuple(command(spec) for spec in specs if spec.command)
