"""The format editors: span-keeping JSON/JSONC/JSON5, TOML blocks, YAML round trip, Markdown blocks."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from toon_memory.adapters.installer import blocks, jsonedit
from toon_memory.adapters.installer.documents import DocumentSyntaxError, open_document
from toon_memory.adapters.installer.jsontext import JsonSyntaxError, parse, to_python
from toon_memory.adapters.installer.tomltext import TomlDocument

_scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=10)
)
_values = st.recursive(_scalars, lambda inner: st.lists(inner, max_size=3)
                       | st.dictionaries(st.text(max_size=6), inner, max_size=3), max_leaves=20)  # fmt: skip
_objects = st.dictionaries(st.text(max_size=8), _values, max_size=5)
ENTRY = {"command": "/bin/toon-memory", "args": ["mcp", "--project", "/p q"]}


@given(_values, st.sampled_from([None, 0, 2, 4, "\t"]))
def test_parse_agrees_with_json(value: object, indent: int | str | None) -> None:
    text = json.dumps(value, indent=indent)
    for dialect in ("json", "jsonc", "json5"):
        assert to_python(parse(text, dialect).root) == json.loads(text)


@settings(max_examples=200)
@given(_objects, st.sampled_from([None, 2, 4, "\t"]), st.sampled_from(["\n", "\r\n"]),
       st.lists(st.sampled_from(["mcpServers", "servers", "toon-memory", "x"]), min_size=1, max_size=3))  # fmt: skip
def test_set_then_delete_gives_the_text_back(data: dict[str, object], indent: int | str | None,
                                             newline: str, path: list[str]) -> None:  # fmt: skip
    existing: object = data
    depth = 0
    for step in path:
        if not isinstance(existing, dict) or step not in existing:
            break
        existing, depth = existing[step], depth + 1
    assume(depth < len(path) and (depth == 0 or isinstance(existing, dict)))
    text = json.dumps(data, indent=indent).replace("\n", newline) + newline
    added = jsonedit.set_value(text, "jsonc", tuple(path), ENTRY)
    holder = to_python(parse(added, "jsonc").root)
    for step in path:
        holder = holder[step]
    assert holder == ENTRY
    assert jsonedit.set_value(added, "jsonc", tuple(path), ENTRY) == added
    back = added
    for end in range(len(path), depth, -1):
        back = jsonedit.delete(back, "jsonc", tuple(path[:end]))
    assert back == text


def test_comments_trailing_commas_and_json5_are_kept() -> None:
    text = "{\n  // lead\n  a: 'x', /* inline */\n  b: [+1, .5, 0x1F, Infinity,],\n}\n"
    out = jsonedit.set_value(text, "json5", ("mcp", "servers", "toon-memory"), ENTRY)
    assert out.startswith("{\n  // lead\n  a: 'x', /* inline */\n  b: [+1, .5, 0x1F, Infinity,],\n")
    value = to_python(parse(out, "json5").root)
    assert value["b"][:3] == [1, 0.5, 31] and math.isinf(value["b"][3])
    assert (
        jsonedit.delete(
            jsonedit.delete(
                jsonedit.delete(out, "json5", ("mcp", "servers", "toon-memory")),
                "json5",
                ("mcp", "servers"),
            ),
            "json5",
            ("mcp",),
        )
        == text
    )


@pytest.mark.parametrize(("dialect", "text", "line"), [
    ("json", '{\n  // no\n  "a": 1\n}', 2),
    ("json", '{\n  "a": 1,\n}', 2),
    ("jsonc", "{\n  'a': 1\n}", 2),
    ("jsonc", '{\n  "a": 1\n  "b": 2\n}', 3),
    ("json5", "{\n  a: 1,\n  b: ,\n}", 3),
])  # fmt: skip
def test_errors_name_the_line(dialect: str, text: str, line: int) -> None:
    with pytest.raises(DocumentSyntaxError) as caught:
        open_document(dialect, text)
    assert caught.value.line == line
    with pytest.raises(JsonSyntaxError):
        parse(text, dialect)


@pytest.mark.parametrize("src", [
    "", "# only a comment\n", 'model = "o3"', 'a = 1\r\n[x]\r\nb = 2\r\n', "[mcp_servers]\n",
    '[mcp_servers.other]\ncommand = "x"\n\n[profiles.a]\nmodel = "b"\n',
    'mcp_servers = { other = { command = "x" } }\n',
])  # fmt: skip
def test_toml_table_in_and_out(src: str) -> None:
    doc = TomlDocument(src)
    doc.set(("mcp_servers", "toon-memory"), ENTRY)
    added = doc.text
    assert TomlDocument(added).get(("mcp_servers", "toon-memory")) == ENTRY
    again = TomlDocument(added)
    again.set(("mcp_servers", "toon-memory"), ENTRY)
    assert again.text == added
    again.delete(("mcp_servers", "toon-memory"))
    assert again.text == src


@pytest.mark.parametrize("src", [
    "# goose\nGOOSE_PROVIDER: openai  # keep\nextensions:\n  developer:\n    enabled: true\n    args:\n    - a\n",
    "name: x\nmodels:\n  - name: m\n    provider: p\n",
    "extensions: {}\n",
])  # fmt: skip
def test_yaml_map_entry_in_and_out(src: str) -> None:
    doc = open_document("yaml", src)
    assert doc.text == src
    doc.set(("extensions", "toon-memory"), {"cmd": "/bin/tm", "args": ["mcp"]})
    added = doc.text
    assert "# goose" in added or "goose" not in src
    back = open_document("yaml", added)
    back.delete(("extensions", "toon-memory"))
    if "extensions" not in src:
        back.delete(("extensions",))
    assert back.text == src


@given(st.text(alphabet=st.sampled_from("ab #\n\r-"), max_size=40))
def test_markdown_block_round_trip(text: str) -> None:
    added = blocks.add_block(text, "hello\nworld")
    assert blocks.has_block(added)
    assert blocks.add_block(added, "hello\nworld") == added
    assert blocks.remove_block(added) == text
