"""No second home of a check comes back: quoting lives in ``errors.py``, the check kinds of
``model.checks`` nowhere else in ``src/``."""

from __future__ import annotations

import re
from pathlib import Path

import toon_memory

SRC = Path(toon_memory.__file__).parent
HOME = SRC / "model" / "checks.py"
#: What only ``model/checks.py`` may write (a stored file's own number checks, which raise
#: ``CorruptFileError``/``ValueError`` naming the file, are not a caller's value): a boolean policy of its own (strings read as
#: booleans), a check function of a kind it holds, a message shape of those kinds.
COPIES = {
    "a quote function": re.compile(r"^def _?quote\(", re.M),
    "strings read as booleans": re.compile(r"""in \(\s*["'](?:true|yes|1)["']"""),
    "a boolean check": re.compile(r"^def (?:check_(?:flag|allow|bool)|_boolean_policy)\(", re.M),
    "a number check": re.compile(
        r"^def check_(?:number|whole|fraction|limit|budget_tokens)\(", re.M
    ),
    "a message of a checked kind": re.compile(  # a caller's value (files decode elsewhere)
        r"InputError\(\s*[^,()]+,\s*f?[\"'](?:must be (?:true or false|a whole number"
        r"|a number from|0 \(no limit\))|expected (?:true or false|a whole number|one of))"
    ),
}


def _sources() -> list[Path]:
    return [path for path in sorted(SRC.rglob("*.py")) if path != HOME]


#: Files that read another program's setting the way that program does (not a policy of ours).
FOREIGN = {
    Path("adapters/installer/trust.py"): "Gemini CLI's own GEMINI_CLI_TRUST_WORKSPACE rule",
}


def test_no_second_copy_of_a_check() -> None:
    found = []
    for path in _sources():
        text = path.read_text(encoding="utf-8")
        rel = path.relative_to(SRC)
        for kind, pattern in COPIES.items():
            if kind == "a quote function" and rel == Path("errors.py"):
                continue
            if kind == "strings read as booleans" and rel in FOREIGN:
                continue
            found += [f"{rel}: {kind}: {m.group(0)!r}" for m in pattern.finditer(text)]
    assert found == []


def test_the_patterns_find_the_copies_they_name() -> None:
    samples = {
        "a quote function": "def quote(value):\n",
        "strings read as booleans": 'if text in ("true", "1", "yes"):',
        "a boolean check": "def check_flag(value, field):\n",
        "a number check": "def check_number(value, field, low, high):\n",
        "a message of a checked kind": 'raise InputError("limit", f"expected a whole number")',
    }
    for kind, sample in samples.items():
        assert COPIES[kind].search(sample), kind
