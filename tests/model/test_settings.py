"""``model.settings.config_from_dict``: every setting missing or 0 takes its default, a
bad value is a CorruptFileError naming the file and the key, and it never touches a file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toon_memory.errors import CorruptFileError
from toon_memory.model.settings import (
    HISTORY_VERSIONS,
    LIMIT_SETTINGS,
    MERGE_MODES,
    Config,
    Limits,
    config_from_dict,
)

PATH = Path("/nowhere/config.json")  # named in errors only, never opened

WHOLE_KEYS = ["sessionWindowMinutes", "hookBudgetTokens", "historyVersions"]


def test_an_empty_object_is_every_default() -> None:
    assert config_from_dict({}, PATH) == Config()
    assert Config().limits == Limits() and Config().history_versions == HISTORY_VERSIONS


def test_every_setting_is_read() -> None:
    config = config_from_dict(
        {"merge": "keep-first", "autoArchive": {"expired": False, "afterDays": 30, "cap": "500"},
         "vocab": {"db": ["postgres", 15], "bad": "not a list"}, "sessionWindowMinutes": 5,
         "capture": True, "verbatim": True, "hookBudgetTokens": 900, "historyVersions": 3,
         "limits": {"keyChars": 10, "importDepth": "4"}},
        PATH,
    )  # fmt: skip
    assert config.merge == "keep-first" and config.archive_expired is False
    assert (config.archive_after_days, config.archive_max_entries) == (30, 500)
    assert config.vocab == {"db": ["postgres", "15"]}
    assert (config.session_window_minutes, config.hook_budget_tokens) == (5, 900)
    assert config.capture is True and config.verbatim is True and config.history_versions == 3
    assert config.limits == Limits(key_chars=10, import_depth=4)


@pytest.mark.parametrize("value", ["merge-all", 3, None])
def test_an_unknown_merge_mode_falls_back_to_replace(value: object) -> None:
    assert config_from_dict({"merge": value}, PATH).merge == "replace"


@pytest.mark.parametrize("value", ["true", 1, "yes", None])
def test_capture_is_on_only_for_the_json_boolean_true(value: object) -> None:
    assert config_from_dict({"capture": value}, PATH).capture is False


@pytest.mark.parametrize("key", WHOLE_KEYS)
@pytest.mark.parametrize("zero", [0, "0", None, ""])
def test_zero_or_missing_takes_the_default(key: str, zero: object) -> None:
    assert config_from_dict({key: zero}, PATH) == Config()


@pytest.mark.parametrize("key", WHOLE_KEYS)
@pytest.mark.parametrize(
    ("value", "needle"),
    [(-1, "0 or more"), ("ten", "whole number"), (True, "whole number"), (1.5, "whole number"),
     ([3], "whole number")],
)  # fmt: skip
def test_a_bad_whole_number_names_the_file_and_key(key: str, value: object, needle: str) -> None:
    with pytest.raises(CorruptFileError) as caught:
        config_from_dict({key: value}, PATH)
    assert caught.value.path == PATH
    assert caught.value.problem.startswith(key) and needle in caught.value.problem


def test_a_bad_limit_names_its_dotted_key() -> None:
    with pytest.raises(CorruptFileError) as caught:
        config_from_dict({"limits": {"queryBytes": -5}}, PATH)
    assert caught.value.problem.startswith("limits.queryBytes")
    with pytest.raises(CorruptFileError) as caught:
        config_from_dict({"autoArchive": {"cap": "lots"}}, PATH)
    assert caught.value.problem.startswith("autoArchive.cap")


@pytest.mark.parametrize("limits", [[], "64", 5])
def test_limits_must_be_an_object(limits: object) -> None:
    with pytest.raises(CorruptFileError) as caught:
        config_from_dict({"limits": limits}, PATH)
    assert "limits must be an object" in caught.value.problem and str(PATH) in str(caught.value)


@given(st.dictionaries(st.sampled_from(sorted(LIMIT_SETTINGS.values())), st.integers(0, 10**9)))
def test_each_limit_is_its_value_or_the_default_for_zero(raw: dict[str, int]) -> None:
    limits = config_from_dict({"limits": raw}, PATH).limits
    default = Limits()
    for attr, name in LIMIT_SETTINGS.items():
        expected = raw.get(name) or getattr(default, attr)
        assert getattr(limits, attr) == expected


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=8,
)


@given(st.dictionaries(st.sampled_from([*WHOLE_KEYS, "merge", "capture", "vocab",
                                        "autoArchive", "limits"]), JSON))  # fmt: skip
def test_any_json_object_is_a_config_or_a_corrupt_file_error(data: dict[str, Any]) -> None:
    try:
        config = config_from_dict(data, PATH)
    except CorruptFileError as error:
        assert error.path == PATH
        return
    assert config.merge in MERGE_MODES
    assert config.session_window_minutes > 0 and config.hook_budget_tokens > 0
    assert config.history_versions > 0
    assert all(getattr(config.limits, attr) > 0 for attr in LIMIT_SETTINGS)
