"""``rules.secrets`` beside the scanner tests in ``secrets_scan/``: findings name the field and
the kind only, the refusal opens with the first field, and ``allow_secrets`` is a real boolean.
(Each credential's detection and the prefilter's superset property are in secrets_scan/.)"""

from __future__ import annotations

import pytest
from tests.rules.secrets_scan.fixtures import SECRETS

from toon_memory.errors import InputError
from toon_memory.model.entry import Entry
from toon_memory.rules.secrets import (
    ALLOW_FIELD,
    OVERRIDE_HINT,
    VAULT_HINT,
    Finding,
    check_entry,
    check_fields,
    describe,
    entry_fields,
    might_hold_secret,
    refusal,
    scan_entry,
    scan_fields,
    scan_text,
)

GH_TEXT, GH_SECRET, GH_KIND = SECRETS["github"]


def test_ordinary_text_passes_the_prefilter_and_has_no_finding() -> None:
    for text in ("", "Use pnpm, not yarn", "commit 3f2a9c1b0d4e5f6a7b8c9d0e1f2a3b4c5d6e7f80",
                 "password policy: 12 characters"):  # fmt: skip
        assert scan_text(text) == []
    assert not might_hold_secret("Use pnpm, not yarn") and might_hold_secret(GH_TEXT)


def test_each_kind_is_reported_once_per_text() -> None:
    assert scan_text(f"{GH_TEXT}\nand again {GH_SECRET}") == [GH_KIND]


def test_scan_fields_reads_lists_and_mappings_and_skips_none() -> None:
    findings = scan_fields({"content": None, "meta": {"deep": {"token": GH_SECRET}},
                            "tags": [["nested", GH_SECRET]], "count": 3})  # fmt: skip
    assert findings == [Finding("meta", GH_KIND), Finding("tags", GH_KIND)]


def test_every_scanned_entry_field_is_published_by_name() -> None:
    entry = Entry(id="0123abcd", category="bug", key="k", content="c", tags=["t"], file="f",
                  path_scope="p", meta={"m": 1})  # fmt: skip
    assert entry_fields(entry) == {"key": "k", "content": "c", "tags": ["t"], "file": "f",
                                   "path_scope": "p", "meta": {"m": 1}}  # fmt: skip
    assert entry_fields(entry.copy(meta={}))["meta"] is None
    for name in ("key", "content", "file", "path_scope"):
        found = scan_entry(entry.copy(**{name: GH_TEXT}))
        assert found == [Finding(name, GH_KIND)]


def test_describe_and_refusal_name_fields_and_kinds_never_values() -> None:
    findings = [Finding("content", "A Kind"), Finding("tags", "B Kind")]
    line = describe(findings)
    assert line == ("content holds what looks like a secret (A Kind); "
                    f"tags holds what looks like a secret (B Kind); {VAULT_HINT}")  # fmt: skip
    assert describe(findings, named=False).startswith("holds what looks like a secret (A Kind);")
    error = refusal(findings)
    assert error.field == "content" and str(error).startswith("content: holds what looks like")
    assert error.problem.endswith(OVERRIDE_HINT)


def test_check_fields_refuses_the_first_field_unless_allowed() -> None:
    with pytest.raises(InputError) as caught:
        check_fields({"summary": "fine", "note": GH_TEXT})
    assert caught.value.field == "note" and GH_SECRET not in str(caught.value)
    check_fields({"note": GH_TEXT}, allow_secrets=True)
    check_fields({"note": "fine"})
    with pytest.raises(InputError) as caught:
        check_fields({"note": "fine"}, allow_secrets="false")
    assert caught.value.field == ALLOW_FIELD


def test_check_entry_passes_a_clean_entry() -> None:
    check_entry(Entry(id="0123abcd", category="bug", key="k", content="nothing secret"))
