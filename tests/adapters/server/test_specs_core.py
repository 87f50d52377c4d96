"""The MCP surface is built from the core: enums are the core's constants, and every
tool's published parameters are parameters of the ``Memory`` method it calls."""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any

import click
import pytest

from toon_memory.adapters.cli.main import cli
from toon_memory.adapters.server.handlers import bound_method, renderer
from toon_memory.adapters.server.specs import ToolSpec
from toon_memory.adapters.server.tools import BY_NAME, TOOLS
from toon_memory.memory.api import Memory
from toon_memory.model import entry as model
from toon_memory.store import hot_state as session_state

#: (tool, parameter) -> the core constant its enum must equal.
ENUMS: dict[tuple[str, str], tuple[Any, ...]] = {
    ("memory_remember", "category"): model.CATEGORIES,
    ("memory_remember", "importance"): model.IMPORTANCE_LEVELS,
    ("memory_remember", "origin"): model.REMEMBER_ORIGINS,
    ("memory_recall", "mode"): model.RECALL_MODES,
    ("memory_recall", "budget"): model.RECALL_BUDGETS,
    ("memory_recall", "hops"): (1, 2),
    ("memory_smart_recall", "hops"): (1, 2),
    ("memory_search", "category"): model.CATEGORIES,
    ("memory_search", "budget"): model.RECALL_BUDGETS,
    ("memory_forget", "action"): model.FORGET_ACTIONS,
    ("memory_diff", "type"): model.DIFF_TYPES,
    ("memory_tag", "action"): model.TAG_ACTIONS,
    ("memory_state", "action"): session_state.ACTIONS,
    ("memory_state", "field"): session_state.FIELDS,
    ("memory_consolidate", "mode"): model.CONSOLIDATE_MODES,
    ("memory_captured", "action"): model.CAPTURED_ACTIONS,
    ("memory_hook", "action"): model.HOOK_ACTIONS,
    ("memory_secret", "action"): model.SECRET_ACTIONS,
}
#: CLI command, option -> the core constant its choices must equal.
CHOICES: dict[tuple[str, str], tuple[str, ...]] = {
    ("forget", "action"): model.FORGET_ACTIONS,
    ("tag", "action"): model.TAG_ACTIONS,
    ("diff", "type"): model.DIFF_TYPES,
    ("recall", "mode"): model.RECALL_MODES,
    ("recall", "budget"): model.RECALL_BUDGETS,
    ("search", "budget"): model.RECALL_BUDGETS,
    ("consolidate", "mode"): model.CONSOLIDATE_MODES,
    ("captured", "action"): model.CAPTURED_ACTIONS,
    ("secret", "action"): model.SECRET_ACTIONS,
}


def test_every_published_enum_is_a_core_constant() -> None:
    published = {(s.name, p.name): p.enum for s in TOOLS for p in s.params if p.enum}
    assert set(published) == set(ENUMS)
    for where, values in published.items():
        assert tuple(values) == tuple(ENUMS[where]), where


def test_cli_choices_are_core_constants() -> None:
    for (name, option), values in CHOICES.items():
        command = cli.commands[name]
        param = next(p for p in command.params if p.name == option)
        assert isinstance(param.type, click.Choice)
        assert tuple(param.type.choices) == values, (name, option)


def _method_params(spec: ToolSpec, memory: Memory) -> dict[str, inspect.Parameter]:
    method = bound_method(memory, spec)
    return {n: p for n, p in inspect.signature(method).parameters.items() if n != "self"}


@pytest.fixture
def memory(project: Path) -> Memory:
    return Memory(project)


@pytest.mark.parametrize("spec", TOOLS, ids=lambda s: s.name)
def test_every_parameter_is_accepted_by_the_memory_method(spec: ToolSpec, memory: Memory) -> None:
    accepted = _method_params(spec, memory)
    call = spec.call_arguments({p.name: None for p in spec.params})
    unknown = set(call) - set(accepted)
    assert not unknown, f"{spec.name} -> Memory.{spec.method} does not take {sorted(unknown)}"
    needed = {n for n, p in accepted.items() if p.default is inspect.Parameter.empty}
    required = set(spec.call_arguments(dict.fromkeys(spec.required)))
    assert needed <= required, (
        f"{spec.name}: Memory.{spec.method} needs {sorted(needed - required)}"
    )


def test_every_tool_has_a_renderer_and_a_method(memory: Memory) -> None:
    assert len(BY_NAME) == len(TOOLS)
    for spec in TOOLS:
        assert callable(bound_method(memory, spec)), spec.method
        assert callable(renderer(spec)), spec.render


def test_the_name_check_catches_a_misspelt_parameter(memory: Memory) -> None:
    """A spec naming a parameter the method lacks is reported (the check can fail)."""
    from toon_memory.adapters.server.specs import Param

    bad = ToolSpec("memory_bad", "x", (Param("keyy"),), method="pin", render="results.pinned")
    call = bad.call_arguments({"keyy": 1})
    assert set(call) - set(_method_params(bad, memory)) == {"keyy"}
    with pytest.raises(ValueError):
        ToolSpec("memory_bad", "x", method="pin")


def test_error_fields_map_back_to_published_names() -> None:
    assert BY_NAME["memory_forget"].fields == {"id_or_key": "key"}
    assert BY_NAME["memory_summary"].fields == {"text": "summary"}
