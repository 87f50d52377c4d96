"""One declaration per tool: its MCP schema, its click command and its contract come from it.

A made-up ``ToolSpec`` is turned into all three, then changed, and all three
change; every declared command of the real group is checked against its
spec and the ``Memory`` signature; a declared command and its MCP tool give
the same answer.
"""

from __future__ import annotations

import inspect
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import anyio
import click
import pytest
from mcp.client import Client
from tests.adapters.server.surface import command_surface
from tests.clirunner import invoke

from toon_memory.adapters.cli import declared
from toon_memory.adapters.cli.main import cli
from toon_memory.adapters.server.app import ToonMemoryServer
from toon_memory.adapters.server.specs import Param, ToolSpec
from toon_memory.adapters.server.tools import COMMAND_SPECS, TOOLS
from toon_memory.memory.api import Memory

PROBE = ToolSpec(
    "memory_probe",
    "A tool made up for this test.",
    (
        Param("query").on_cli(argument=True),
        Param("mode", enum=("flat", "graph")).on_cli(help="How to rank.", show_default=True),
        Param("limit", "integer", "Max results", minimum=1).on_cli(flags=("-n",)),
        Param("explain", "boolean", "Why lines"),
        Param("budget_tokens", "integer", "Cap").only_on_cli(),
    ),
    method="recall",
    render="results.recalled",
    command="probe",
    help="Probe the memory.",
)
DECLARED = list(COMMAND_SPECS)


def _option(command: click.Command, name: str) -> click.Parameter:
    return next(p for p in command.params if p.name == name)


def _three(spec: ToolSpec) -> tuple[dict[str, Any], click.Command, dict[str, Any]]:
    command = declared.command(spec)
    return spec.input_schema(), command, command_surface(spec, command)


def test_schema_click_options_and_contract_come_from_one_declaration() -> None:
    schema, command, contract = _three(PROBE)
    assert list(schema["properties"]) == ["query", "mode", "limit", "explain"]
    assert schema["properties"]["mode"] == {"type": "string", "enum": ["flat", "graph"]}
    mode = _option(command, "mode")
    assert isinstance(mode.type, click.Choice) and list(mode.type.choices) == ["flat", "graph"]
    assert mode.get_default(click.Context(command)) == "flat"  # Memory.recall's own default
    assert _option(command, "limit").opts == ["--limit", "-n"]
    explain = _option(command, "explain")
    assert (explain.opts, explain.secondary_opts) == (["--explain"], ["--no-explain"])
    assert isinstance(_option(command, "query"), click.Argument)
    assert "budget_tokens" not in schema["properties"]  # CLI only
    assert [row["name"] for row in contract["params"]] == [
        "query", "mode", "limit", "explain", "budget_tokens", "as_json",
    ]  # fmt: skip
    assert contract["params"][1]["choices"] == ["flat", "graph"]
    assert contract["params"][1]["default"] == "flat"


def test_changing_the_declaration_changes_all_three() -> None:
    mode = replace(PROBE.params[1], enum=("flat", "graph", "index"), doc="Ranking")
    renamed = replace(PROBE.params[2], name="top")
    spec = replace(
        PROBE, params=(PROBE.params[0], mode, renamed, *PROBE.params[3:]), rename={"top": "limit"}
    )
    schema, command, contract = _three(spec)
    assert schema["properties"]["mode"]["enum"] == ["flat", "graph", "index"]
    assert schema["properties"]["mode"]["description"] == "Ranking"
    choice = _option(command, "mode").type
    assert isinstance(choice, click.Choice) and "index" in choice.choices
    assert contract["params"][1]["choices"] == ["flat", "graph", "index"]
    assert "top" in schema["properties"] and "limit" not in schema["properties"]
    assert _option(command, "top").opts == ["--top", "-n"]
    assert [row["name"] for row in contract["params"]][2] == "top"


@pytest.mark.parametrize("spec", DECLARED, ids=[s.command for s in DECLARED])
def test_each_declared_command_is_its_spec(spec: ToolSpec) -> None:
    """Same parameters in the same order; booleans --flag/--no-flag; required stays required;
    every default is the Memory method's unless the CLI declares its own."""
    command: click.Command = cli
    for name in spec.command.split():
        assert isinstance(command, click.Group)
        command = command.commands[name]
    shared = ("as_json", "server", "token_env")
    params = [p for p in command.params if p.name not in shared]
    remote = {p.name for p in command.params} & {"server", "token_env"}
    assert remote == ({"server", "token_env"} if spec.name in declared.REMOTE_TOOLS else set())
    on_line = [p for p in spec.params if p.cli is None or not p.cli.fixed]
    assert [p.name for p in params] == [p.name for p in on_line]
    method = declared.bound_class_method(spec)
    signature = inspect.signature(method).parameters
    ctx = click.Context(command)
    for param, click_param in zip(on_line, params, strict=True):
        inner = spec.rename.get(param.name, param.name)
        assert inner in signature, f"{spec.command}: Memory takes no {inner}"
        own_default = param.cli is not None and param.cli.default is not ...
        assert click_param.required == (param.name in spec.required and not own_default)
        if param.kind == "boolean":
            assert isinstance(click_param, click.Option)
            off = param.cli.off if param.cli is not None else ""
            assert click_param.secondary_opts == [off or "--no-" + param.name.replace("_", "-")]
        form = param.cli
        if form is not None and form.show_default and form.default is ...:
            assert click_param.get_default(ctx) == signature[inner].default


def test_help_shows_the_memory_methods_defaults() -> None:
    done = invoke("primer", "--help")
    assert done.returncode == 0
    signature = inspect.signature(Memory.primer).parameters
    text = " ".join(done.stdout.split())
    assert f"[default: {signature['limit'].default}]" in text
    assert f"[default: {signature['budget_tokens'].default}]" in text
    assert "-n, --limit" in text


def _mcp(project: Path, name: str, arguments: dict[str, Any]) -> Any:
    async def call() -> Any:
        async with Client(ToonMemoryServer(project)) as client:
            return (await client.call_tool(name, arguments)).structured_content

    return anyio.run(call)


def _keys(data: dict[str, Any]) -> list[str]:
    return [row["key"] for row in data["results"]]


@pytest.fixture
def seeded(project: Path) -> Path:
    memory = Memory(project)
    memory.remember("decision", "use-zod", "Validate API input with zod schemas", tags="api")
    memory.remember("pattern", "zod-schemas", "Shared zod schemas live in src/schemas")
    memory.remember("warning", "no-eval", "Never call eval on user input", tags="security")
    return project


@pytest.mark.parametrize(
    ("args", "tool", "arguments"),
    [
        (["recall", "zod", "-n", "1"], "memory_recall", {"query": "zod", "limit": 1}),
        (["recall", "zod", "--mode", "graph", "--no-rrf"], "memory_recall",
         {"query": "zod", "mode": "graph", "rrf": False}),
        (["search", "zod", "--category", "pattern"], "memory_search",
         {"query": "zod", "category": "pattern"}),
        (["smart-recall", "validate input", "--no-session-bias"], "memory_smart_recall",
         {"intent": "validate input", "session_bias": False}),
    ],
)  # fmt: skip
def test_a_declared_command_answers_as_its_tool(
    seeded: Path, args: list[str], tool: str, arguments: dict[str, Any]
) -> None:
    done = invoke(*args, "--json", project=seeded)
    assert done.returncode == 0, done.stderr
    assert _keys(json.loads(done.stdout)) == _keys(_mcp(seeded, tool, arguments))


def test_search_takes_what_the_cli_offers(seeded: Path) -> None:
    """CLI search calls Memory.search, which accepts --explain and --budget-tokens."""
    done = invoke("search", "zod", "--explain", "--budget-tokens", "60", "--json", project=seeded)
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)["results"]
    assert rows and all(row["reasons"] for row in rows)
    direct = Memory(seeded).search("zod", explain=True, budget_tokens=60)
    assert [hit.entry.key for hit in direct.hits] == [row["key"] for row in rows]


def test_a_missing_required_argument_is_a_usage_error(seeded: Path) -> None:
    done = invoke("path", "use-zod", project=seeded)
    assert done.returncode == 2 and "Missing argument 'TO_KEY'" in done.stderr
    assert done.exception is None


@pytest.mark.parametrize(
    ("tool", "on", "off", "name"),
    [("memory_consolidate", "--dry-run", "--apply", "dry_run"),
     ("memory_promote", "--dry-run", "--apply", "dry_run"),
     ("memory_import_global", "--merge", "--replace", "merge")],
)  # fmt: skip
def test_a_declared_off_flag_sets_the_boolean_false(
    tool: str, on: str, off: str, name: str
) -> None:
    spec = next(s for s in TOOLS if s.name == tool)
    command = declared.command(spec)
    for args, expected in (([off], {name: False}), ([on], {name: True}), ([], {})):
        ctx = command.make_context(command.name or "", list(args))
        values = {k: v for k, v in ctx.params.items() if k != "as_json"}
        assert declared.given(ctx, spec, values) == expected, args


def test_a_fixed_parameter_is_passed_and_not_on_the_command_line() -> None:
    by_command = {s.command: s for s in COMMAND_SPECS}
    for action in ("show", "set", "add", "clear"):
        spec = by_command[f"state {action}"]
        command = declared.command(spec)
        assert "action" not in [p.name for p in command.params]
        args = ["current_task", "ship", "v2"] if action in ("set", "add") else []
        ctx = command.make_context(action, list(args))  # click consumes the list
        values = {k: v for k, v in ctx.params.items() if k != "as_json"}
        called = declared.given(ctx, spec, values)
        assert called["action"] == action
        if args:  # a ``many`` argument: a list, not words joined
            assert called["field"] == "current_task" and called["value"] == ["ship", "v2"]
        else:
            assert "value" not in called  # none given: the method's default (None)


def test_an_environment_variable_gives_an_option_not_on_the_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    spec = next(s for s in TOOLS if s.name == "memory_sessions")
    assert "session" not in spec.input_schema()["properties"]  # CLI only
    command = declared.command(spec)
    for env, args, expected in (("s-env", [], "s-env"), ("s-env", ["--session", "s-arg"], "s-arg"),
                                ("", [], None)):  # fmt: skip
        monkeypatch.setenv("TOON_MEMORY_SESSION", env)
        ctx = command.make_context("sessions", list(args))
        values = {k: v for k, v in ctx.params.items() if k != "as_json"}
        assert declared.given(ctx, spec, values).get("session") == expected, (env, args)
