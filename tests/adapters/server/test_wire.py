"""``wire.repair``: JSON the SDK's parser refuses becomes JSON it parses, the refusal noted.

The SDK parses each message with pydantic's JSON parser (the ``mcp_types``
adapter used here), which refuses lone surrogates, nesting near 200 levels
and integers over 4300 digits although they are valid JSON; unrepaired, such
a request is dropped and never answered.
"""

from __future__ import annotations

import json
from typing import Any

import mcp_types
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toon_memory.adapters.server.wire import INVALID, MAX_DEPTH, TOO_DEEP, TOO_LONG, UNICODE, repair


def _call(arguments: dict[str, Any], **params: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": 7, "method": "tools/call",
            "params": {"name": "memory_recall", "arguments": arguments, **params}}  # fmt: skip


def _sdk_parses(text: str) -> bool:
    try:
        mcp_types.jsonrpc_message_adapter.validate_json(text, by_name=False)
    except Exception:
        return False
    return True


def _repaired(message: Any, deep: int = 0) -> dict[str, Any]:
    """``message`` repaired; a ``"DEEP"`` value in it stands for ``deep`` nested lists."""
    text = json.dumps(message).replace('"DEEP"', "[" * deep + "]" * deep)
    assert not _sdk_parses(text)
    fixed = repair(text)
    assert fixed is not None and _sdk_parses(fixed)
    out: dict[str, Any] = json.loads(fixed)
    return out


def _deep(levels: int) -> Any:
    value: Any = []
    for _ in range(levels - 1):
        value = [value]
    return value


def test_a_lone_surrogate_argument_is_refused_by_name() -> None:
    out = _repaired(_call({"query": "a\ud800b", "limit": 3}))
    assert out["params"]["_meta"][INVALID] == {"query": UNICODE}
    assert out["params"]["arguments"] == {"query": None, "limit": 3}
    assert out["id"] == 7


def test_a_lone_surrogate_in_an_argument_name_is_refused_too() -> None:
    out = _repaired(_call({"q\udc00": "x"}))
    assert out["params"]["_meta"][INVALID] == {"q\ufffd": UNICODE}


@pytest.mark.parametrize("levels", [250, 5_000, 100_000])
def test_deep_nesting_is_cut_and_named(levels: int) -> None:
    out = _repaired(_call({"query": "DEEP", "mode": "graph"}, _meta={"keep": 1}), levels)
    assert out["params"]["_meta"] == {"keep": 1, INVALID: {"query": TOO_DEEP}}
    assert out["params"]["arguments"] == {"query": None, "mode": "graph"}


def test_an_integer_too_long_to_convert_is_refused() -> None:
    text = json.dumps(_call({"limit": 1})).replace('"limit": 1', '"limit": ' + "9" * 5000)
    fixed = repair(text)
    assert fixed is not None and _sdk_parses(fixed)
    assert json.loads(fixed)["params"]["_meta"][INVALID] == {"limit": TOO_LONG}


def test_other_requests_are_repaired_without_a_note() -> None:
    message = {"jsonrpc": "2.0", "id": 3, "method": "resources/read", "params": {"uri": "\ud800"}}
    assert _repaired(message) == {**message, "params": {"uri": "\ufffd"}}


@pytest.mark.parametrize(
    "text",
    [
        json.dumps(_call({"query": "caf\u00e9 \U0001f600"})),  # escaped pairs are fine
        json.dumps(_call({"query": "[" * 300})),  # brackets inside a string
        json.dumps(_call({"query": _deep(MAX_DEPTH)})),
        '{"jsonrpc": "2.0", "id": 1, "method": "ping"',  # not JSON: nothing to answer
        "[[[" * 100,
        "",
    ],
)
def test_what_needs_no_repair_is_left_alone(text: str) -> None:
    assert repair(text) is None


JSON_SCALARS = st.none() | st.booleans() | st.integers() | st.floats() | st.text()
SURROGATES = st.sampled_from(["\ud800", "\udbff", "\udc00", "\udfff"])
ODD_TEXT = st.builds(
    lambda a, s, b: a + s + b, st.text(max_size=5), SURROGATES, st.text(max_size=5)
)
VALUES = st.recursive(
    JSON_SCALARS | ODD_TEXT,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=12,
)
NAMES = st.text(max_size=6) | ODD_TEXT


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(NAMES, VALUES | st.integers(210, 400).map(_deep), max_size=4))
def test_any_call_comes_out_answerable(arguments: dict[str, Any]) -> None:
    text = json.dumps(_call(arguments))
    fixed = repair(text)
    if fixed is None:
        assert _sdk_parses(text)
        return
    out = json.loads(fixed)
    assert _sdk_parses(fixed)
    refused = out["params"]["_meta"][INVALID]
    assert refused and all(out["params"]["arguments"][name] is None for name in refused)
    assert set(out["params"]["arguments"]) - set(refused) <= set(arguments)
