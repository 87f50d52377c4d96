"""Argument checking: accepted spellings, coercions and the errors that name the parameter."""

from __future__ import annotations

import pytest

from toon_memory.adapters.server.args import normalise
from toon_memory.adapters.server.tools import BY_NAME
from toon_memory.errors import InputError

RECALL = BY_NAME["memory_recall"]


def test_camel_and_snake_map_to_the_published_name() -> None:
    got = normalise(RECALL, {"sessionBias": True, "path_scope": "src/", "budgetTokens": 10})
    assert got == {"session_bias": True, "path_scope": "src/", "budget_tokens": 10}


def test_null_means_not_given() -> None:
    assert normalise(RECALL, {"query": None, "limit": None}) == {}


def test_lenient_scalars() -> None:
    got = normalise(RECALL, {"limit": "5", "explain": True, "hops": 2.0, "mode": " Graph "})
    assert got == {"limit": 5, "explain": True, "hops": 2, "mode": "graph"}


@pytest.mark.parametrize("value", ["true", "yes", "false", 1, 0])
def test_a_boolean_is_a_json_boolean_only(value: object) -> None:
    with pytest.raises(InputError) as caught:
        normalise(RECALL, {"explain": value})
    assert caught.value.field == "explain"
    assert caught.value.problem.startswith("must be true or false; got ")


def test_many_accepts_a_list() -> None:
    got = normalise(BY_NAME["memory_tag"], {"keys": ["a", "b"], "action": "add", "tags": "x"})
    assert got["keys"] == ["a", "b"]


def test_legacy_alias() -> None:
    got = normalise(BY_NAME["memory_graph_path"], {"from": "a", "to": "b"})
    assert got == {"from_key": "a", "to_key": "b"}


@pytest.mark.parametrize(
    ("arguments", "field", "words"),
    [
        ({"querry": "x"}, "querry", "unknown parameter"),
        ({"limit": True}, "limit", "whole number"),
        ({"limit": "many"}, "limit", "whole number"),
        ({"limit": 0}, "limit", "at least 1"),
        ({"explain": "maybe"}, "explain", "true or false"),
        ({"explain": "true"}, "explain", "must be true or false"),
        ({"rrf": 0}, "rrf", "must be true or false"),
        ({"compact": "yes"}, "compact", "must be true or false"),
        ({"mode": "fuzzy"}, "mode", "one of flat, graph, index"),
        ({"query": ["a"]}, "query", "a string"),
        ({"session_bias": True, "sessionBias": False}, "session_bias", "given twice"),
    ],
)
def test_errors_name_the_parameter(arguments: dict[str, object], field: str, words: str) -> None:
    with pytest.raises(InputError) as caught:
        normalise(RECALL, arguments)
    assert caught.value.field == field
    assert words in caught.value.problem


def test_required() -> None:
    with pytest.raises(InputError) as caught:
        normalise(BY_NAME["memory_remember"], {"category": "bug", "key": "k"})
    assert caught.value.field == "content"


@pytest.mark.parametrize(
    ("arguments", "field", "words"),
    [
        ({"query": "a\ud800b"}, "query", "invalid Unicode (a lone surrogate at character 2)"),
        ({"ids": ["ok", "\udfff"]}, "ids", "invalid Unicode"),
        ({"limit": "\u00b2"}, "limit", "whole number"),  # isdigit() but not int()
        ({"limit": "9" * 5000}, "limit", "whole number of at least 1; got '9999"),
        ({"limit": float("inf")}, "limit", "whole number"),
        ({"query": float("nan")}, "query", "finite number"),
        ({"query": 10**5000}, "query", "very large number"),
        ({"query": [[["deep"]]]}, "query", "got a list"),
        ({"query": {"a": 1}}, "query", "got an object"),
    ],
)
def test_odd_values_are_named_errors(arguments: dict[str, object], field: str, words: str) -> None:
    with pytest.raises(InputError) as caught:
        normalise(RECALL, arguments)
    assert caught.value.field == field
    assert words in caught.value.problem


@pytest.mark.parametrize("value", [float("nan"), float("inf"), "-Infinity", "nan", 10**400])
def test_numbers_must_be_finite(value: object) -> None:
    with pytest.raises(InputError) as caught:
        normalise(BY_NAME["memory_remember"], {"category": "bug", "key": "k", "content": "c",
                                               "confidence": value})  # fmt: skip
    assert caught.value.field == "confidence" and "finite number" in caught.value.problem


@pytest.mark.parametrize(
    "arguments", [{"mode": "x" * 1_000_000}, {"limit": "\ud800" + "x" * 999_999}]
)
def test_an_error_quotes_a_bad_value_briefly_and_encodably(arguments: dict[str, str]) -> None:
    with pytest.raises(InputError) as caught:
        normalise(RECALL, arguments)
    problem = caught.value.problem
    assert len(problem) < 200 and "(+999960 more characters)" in problem
    problem.encode("utf-8")  # a lone surrogate is shown escaped


def test_an_unknown_name_is_shown_safely() -> None:
    with pytest.raises(InputError) as caught:
        normalise(RECALL, {"q\ud800" + "y" * 500: 1})
    assert len(caught.value.field) < 50
    caught.value.field.encode("utf-8")
