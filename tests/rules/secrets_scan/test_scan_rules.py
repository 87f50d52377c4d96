"""The scanner itself: each credential fixture is found by kind, each look-alike passes,
and the prefilter never hides what the detect-secrets plugins would find."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.rules.secrets_scan.fixtures import HARMLESS, SECRETS

from toon_memory.errors import InputError
from toon_memory.model.entry import Entry
from toon_memory.rules.secrets import (
    _plugins,
    check_entry,
    might_hold_secret,
    scan_fields,
    scan_text,
)


def plugins_find(text: str) -> list[str]:
    """What the plugins find with no prefilter in front of them."""
    return [p.secret_type for p in _plugins() if any(True for _ in p.analyze_string(text))]


@pytest.mark.parametrize("name", sorted(SECRETS))
def test_each_credential_is_found_by_kind(name: str) -> None:
    text, _secret, kind = SECRETS[name]
    assert scan_text(text) == [kind]


@pytest.mark.parametrize("name", sorted(HARMLESS))
def test_look_alikes_pass(name: str) -> None:
    assert scan_text(HARMLESS[name]) == []
    assert plugins_find(HARMLESS[name]) == []


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), max_size=120),
       st.sampled_from(sorted(SECRETS)), st.booleans())  # fmt: skip
def test_prefilter_is_a_superset_of_the_plugins(noise: str, name: str, embed: bool) -> None:
    text = noise + (SECRETS[name][0] if embed else "") + noise[::-1]
    found = plugins_find(text)
    if found:
        assert might_hold_secret(text)
        assert scan_text(text) == [k for k in dict.fromkeys(found)]
    if embed:
        assert SECRETS[name][2] in scan_text(text)


def test_fields_are_named_and_values_never_kept() -> None:
    gh_text, gh_secret, _ = SECRETS["github"]
    findings = scan_fields({"content": "fine", "tags": ["ok", gh_secret], "file": gh_text})
    assert [(f.field, f.kind) for f in findings] == [("tags", "GitHub Token"),
                                                      ("file", "GitHub Token")]  # fmt: skip
    assert all(gh_secret not in f.describe() for f in findings)


def test_check_entry_refuses_unless_allowed() -> None:
    text, secret, kind = SECRETS["pem"]
    entry = Entry(id="a1", category="knowledge", key="deploy", content=text)
    with pytest.raises(InputError) as caught:
        check_entry(entry)
    message = str(caught.value)
    assert caught.value.field == "content" and kind in message and "memory_secret" in message
    assert secret not in message and "MIIEow" not in message
    check_entry(entry, allow_secrets=True)
    for loose in ("yes", "true", 1, None):  # real booleans only
        with pytest.raises(InputError, match="allow_secrets: must be true or false"):
            check_entry(entry, allow_secrets=loose)
