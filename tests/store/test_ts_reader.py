"""The tolerant reader of TOON files written by the TypeScript toon-memory.

Own fixtures (tests/fixtures/ts/) reproduce each quirk; the two real sample
files in ../shared/datasets/ts-samples are read when present.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toon_memory.errors import ImportFormatError
from toon_memory.model.entry import FIELDS, entry_from_row, is_valid_id
from toon_memory.store.ts_reader import TsReadResult, looks_like_ts_toon, read_ts_toon

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "ts"
SAMPLES = Path(__file__).resolve().parents[2].parent / "shared" / "datasets" / "ts-samples"
TS_FILE_START = (
    "version: 1\nentries[1|]{id|category|key|content|file|tags|date|ttl|accessed|links}:\n"
)
TS_HEADER = "entries[{n}|]{{id|category|key|content|file|tags|date|ttl|accessed|links}}:"


def read_fixture(name: str) -> TsReadResult:
    return read_ts_toon(fixture_text(name), source=name)


def fixture_text(name: str) -> str:
    return (FIXTURES / name).read_bytes().decode("utf-8")


def by_key(result: TsReadResult) -> dict[str, dict[str, str]]:
    return {row["key"]: row for row in result.rows}


def repairs_about(result: TsReadResult, needle: str) -> list[str]:
    return [line for line in result.repairs if needle in line]


# ------------------------------------------------------------------ quirks, one fixture each


def test_rows_wider_than_header_read_the_ts_field_order() -> None:
    result = read_fixture("wide_rows.toon")
    rows = by_key(result)
    assert rows["use-zod"]["quality"] == "0.65"
    assert rows["use-zod"]["confidence"] == "1.0"
    assert rows["use-zod"]["lastAccessed"] == "2026-07-11"
    assert rows["pydantic"]["accessed"] == "3"
    assert rows["pydantic"]["links"] == "use-zod"
    assert any("quality, confidence, lastAccessed" in r for r in result.repairs)


def test_wide_row_with_a_shifted_content_is_rebuilt() -> None:
    rows = by_key(read_fixture("wide_rows.toon"))
    assert rows["pool-fix"]["content"] == "max_connections=20 | retry=3"
    assert rows["pool-fix"]["ttl"] == "7d"
    assert rows["pool-fix"]["quality"] == "0.70"


def test_declared_row_count_differing_from_real_count_is_reported() -> None:
    result = read_fixture("wide_rows.toon")
    assert len(result.rows) == 3
    assert repairs_about(result, "declares 4 rows, 3 follow")


def test_unescaped_pipe_in_content_is_rebuilt_and_reported() -> None:
    result = read_fixture("shifted.toon")
    row = by_key(result)["endpoints"]
    assert row["content"] == "POST /auth/login|/refresh|/logout are public"
    assert (row["file"], row["tags"], row["date"], row["accessed"]) == (
        "",
        "api;auth",
        "2026-07-15",
        "0",
    )
    assert repairs_about(result, "line 3 (key 'endpoints')")
    assert by_key(result)["plain"]["links"] == "endpoints"


def test_row_that_cannot_be_rebuilt_is_kept_whole_in_content() -> None:
    result = read_fixture("shifted.toon")
    row = by_key(result)["hopeless"]
    assert row["content"] == "33333333|warning|hopeless|" + "|".join("abcdefghijklmnopqrstuvwxyz")
    assert row["id"] == "33333333" and row["category"] == "warning"
    assert repairs_about(result, "whole raw row kept in content")


def test_short_row_is_padded_and_reported() -> None:
    result = read_fixture("shifted.toon")
    row = by_key(result)["short"]
    assert row["content"] == "only content"
    assert row["date"] == "" and row["links"] == ""
    assert repairs_about(result, "line 6 (key 'short')")


def test_ts_escapes_in_unquoted_cells() -> None:
    result = read_fixture("escapes.toon")
    rows = by_key(result)
    assert rows["escaped-pipe"]["content"] == "a | b | c"
    assert rows["escaped-pipe"]["file"] == "src/x.ts"
    assert rows["escaped-newline"]["content"] == "line one\nline two\\n not a newline, C:\\dir\\q"
    assert result.repairs == [] and result.skipped == []


def test_quoted_cells_and_inner_quotes() -> None:
    rows = by_key(read_fixture("escapes.toon"))
    assert rows["quoted"]["content"] == 'she said "hi" | bye'
    assert rows["quoted"]["tags"] == "q"
    assert rows["inner-quotes"]["content"] == '"zod": "^4.4.3"'


def test_bare_headers_and_raw_multiline_markdown() -> None:
    result = read_fixture("bare_multiline.toon")
    assert [row["key"] for row in result.rows] == [
        "arch-review",
        "zod-status",
        "arch-review",
        "loop",
    ]
    first = result.rows[0]
    assert first["content"] == (
        "## Review\n\n| Metric | Value |\n|---|---|\n| Nodes | 2173 |\n\n- **Bold** item"
    )
    assert (first["file"], first["tags"], first["date"]) == (
        "AGENTS.md",
        "architecture;review",
        "2026-07-12",
    )
    second = result.rows[1]
    assert second["content"] == (
        "## Zod status\n- all good|src/env.ts|zod;v4|2026-07-12\n\n"
        "### Appendix\n  - nested item\n- more text"
    )
    assert second["tags"] == "zod;v4;architecture"
    assert result.rows[2]["content"] == "## Review, second pass\n  (same id as the first)"
    assert result.skipped == []


def test_duplicate_id_gets_a_fresh_deterministic_id() -> None:
    result = read_fixture("bare_multiline.toon")
    ids = [row["id"] for row in result.rows]
    assert ids[0] == "0a0a0a0a" and ids[2] != "0a0a0a0a"
    assert is_valid_id(ids[2]) and len(set(ids)) == len(ids)
    assert repairs_about(result, "line 18 (key 'arch-review'): duplicate id '0a0a0a0a'")
    assert read_fixture("bare_multiline.toon").rows[2]["id"] == ids[2]


def test_many_duplicates_never_collide() -> None:
    lines = ["version: 1", TS_HEADER.format(n=60)]
    lines += [f"  0000000{i % 3}|knowledge|k{i}|c{i}|||2026-07-10||0|" for i in range(60)]
    result = read_ts_toon("\n".join(lines))
    ids = [row["id"] for row in result.rows]
    assert len(set(ids)) == 60 and all(is_valid_id(i) for i in ids)
    assert ids[:3] == ["00000000", "00000001", "00000002"]
    assert len(repairs_about(result, "duplicate id")) == 57


def test_comma_separated_tags_are_normalised() -> None:
    result = read_fixture("bare_multiline.toon")
    assert by_key(result)["loop"]["tags"] == "loop;sgp;orquestacion"
    assert repairs_about(result, "line 21 (key 'loop'): tags 'loop,sgp, orquestacion'")


def test_crlf_and_blank_lines() -> None:
    text = fixture_text("crlf.toon")
    assert "\r\n" in text
    result = read_ts_toon(text)
    assert [row["content"] for row in result.rows] == ["one\ntwo", "three"]
    assert by_key(result)["second"]["links"] == "first"
    assert result.repairs == [] and result.skipped == []
    assert read_ts_toon(text.replace("\r\n", "\n")) == result


def test_summaries_key_value_section() -> None:
    result = read_fixture("summaries.toon")
    assert result.summaries == [
        {"file": "src/services/redis.ts", "summary": "Redis connection pool with retry logic"},
        {"file": "src/odd: name.ts", "summary": "Quoted file name"},
    ]
    assert result.skipped == ["line 7:   not a summary line"]
    assert len(result.rows) == 1


def test_summaries_table_section() -> None:
    result = read_fixture("summaries_table.toon")
    assert [s["summary"] for s in result.summaries] == ["Reads a | writes b", "Has | a raw pipe"]
    assert result.summaries[1]["date"] == "2026-07-11"
    assert repairs_about(result, "line 6")


def test_stray_lines_are_skipped_with_their_number() -> None:
    result = read_fixture("damaged.toon")
    assert result.skipped == [
        "line 1: # a comment line someone added",
        "line 4: stray text before any row",
        "line 6: oops, a line that does not belong",
        "line 9: other[1|]{a|b}:",
        "line 10:   1|2",
    ]
    assert [row["key"] for row in result.rows] == ["good", "bad-id", "upper-dup"]
    assert by_key(result)["good"]["links"] == ""


def test_invalid_and_case_variant_ids_are_replaced() -> None:
    result = read_fixture("damaged.toon")
    rows = by_key(result)
    assert rows["good"]["id"] == "ffffffff"
    assert is_valid_id(rows["bad-id"]["id"]) and is_valid_id(rows["upper-dup"]["id"])
    assert rows["upper-dup"]["id"] != "ffffffff"
    assert repairs_about(result, "invalid id 'XYZ'")


@pytest.mark.parametrize("name", sorted(p.name for p in FIXTURES.glob("*.toon")))
def test_every_fixture_row_becomes_an_entry(name: str) -> None:
    for row in read_fixture(name).rows:
        entry = entry_from_row(row)
        assert entry.key and is_valid_id(entry.id)


# ------------------------------------------------------------------ edges of the API


@pytest.mark.parametrize("text", ["", "   \n\n", "\r\n"])
def test_blank_text_reads_as_nothing(text: str) -> None:
    assert read_ts_toon(text) == TsReadResult()


@pytest.mark.parametrize(
    "text", ["hello", "version: 1\n", "summaries:\n  a.ts: b", '{"entries": []}']
)
def test_text_without_entries_table_raises(text: str) -> None:
    with pytest.raises(ImportFormatError, match="no entries table"):
        read_ts_toon(text, source="their.toon")


def test_empty_entries_table_is_fine() -> None:
    result = read_ts_toon("version: 1\n" + TS_HEADER.format(n=0) + "\n")
    assert result.rows == [] and result.skipped == [] and result.repairs == []


@pytest.mark.parametrize("name", sorted(p.name for p in FIXTURES.glob("*.toon")))
def test_fixtures_look_like_ts_toon(name: str) -> None:
    assert looks_like_ts_toon(fixture_text(name))


def spec_text(*cells: list[str]) -> str:
    rows = "".join("  " + "|".join(row) + "\n" for row in cells)
    header = f"entries[{len(cells)}|]{{{'|'.join(FIELDS)}}}:"
    return f"version: 1\n{header}\n{rows}summaries:\n  a.ts: x\n"


def spec_row(content: str) -> list[str]:
    row = ["a1b2c3d4", "decision", "k", content] + [""] * (len(FIELDS) - 4)
    return row


def test_spec_toon_in_our_layout_does_not_look_like_ts() -> None:
    assert not looks_like_ts_toon(spec_text(spec_row("plain"), spec_row('"a|b \\\\|c\\n"')))
    assert not looks_like_ts_toon("")
    assert not looks_like_ts_toon("just some words")


def test_spec_toon_written_by_toon_format_does_not_look_like_ts() -> None:
    toon_format = pytest.importorskip("toon_format")
    row = {name: "" for name in FIELDS} | {"id": "a1b2c3d4", "key": "k", "content": 'x|y\\|z\n"q"'}
    text = toon_format.dumps({"version": 1, "entries": [row]}, delimiter="|")
    assert not looks_like_ts_toon(text)


@pytest.mark.parametrize(
    "text",
    [
        spec_text(spec_row("a \\| b")),
        spec_text(spec_row("a|b")),
        "version: 1\n[1|]{" + "|".join(FIELDS) + "}:\n",
        "version: 1\n" + TS_HEADER.format(n=0) + "\n",
        spec_text(spec_row("first line")).replace("summaries:", "raw continuation\nsummaries:"),
    ],
)
def test_ts_quirks_look_like_ts(text: str) -> None:
    assert looks_like_ts_toon(text)


# ------------------------------------------------------------------ the real files


def sample(name: str) -> str:
    path = SAMPLES / name
    if not path.exists():
        pytest.skip(f"{path} is absent (the shared TypeScript samples live outside the repo)")
    return path.read_text(encoding="utf-8")


@pytest.mark.parametrize(("name", "count"), [("sgp-data.toon", 7), ("opencode-data.toon", 5)])
def test_real_ts_samples_come_in_whole(name: str, count: int) -> None:
    text = sample(name)
    result = read_ts_toon(text, source=name)
    assert len(result.rows) == count
    assert len({row["id"] for row in result.rows}) == count
    for row in result.rows:
        entry = entry_from_row(row)
        assert entry.key and entry.content and re.fullmatch(r"\d{4}-\d{2}-\d{2}", entry.date)
    assert_no_text_lost(text, result)
    assert looks_like_ts_toon(text)


def test_real_samples_repairs() -> None:
    sgp = read_ts_toon(sample("sgp-data.toon"))
    row = by_key(sgp)["backend-endpoints-tests"]
    assert "POST /auth/login|/refresh|/logout (p" in row["content"]
    assert (row["tags"], row["date"]) == ("backend;endpoints;tests;lint", "2026-07-15")
    opencode = read_ts_toon(sample("opencode-data.toon"))
    assert by_key(opencode)["sgp-loop-engineering"]["tags"] == "loop;sgp;arquitectura;orquestacion"
    assert "- **Nodos**: 2173 | **Aristas**: 4291" in opencode.rows[0]["content"]


def assert_no_text_lost(text: str, result: TsReadResult) -> None:
    """Every piece of every line is in some cell, a repair note or the skipped list."""
    haystack = "\n".join(
        [value for row in result.rows for value in row.values()] + result.repairs + result.skipped
    )
    for line in text.splitlines():
        if not line.strip() or line.startswith(("version:", "entries[", "[")):
            continue
        for piece in line.split("|"):
            assert piece.strip() in haystack, f"lost: {piece!r} of line {line!r}"


# ------------------------------------------------------------------ properties

PIECES = [
    "version: 1", "summaries:", TS_HEADER.format(n=2), "[1|]{id|category|key|content}:",
    "entries[1,]{a,b}:", "  a1b2c3d4|", "  0000000g|bug|", "|", "\\", '"', "\\|", "\\n",
    "2026-07-10", "\r", "  x: y", '  "q": z', "decision", "||0|",
]  # fmt: skip
TOONISH = st.lists(
    st.one_of(st.sampled_from(PIECES), st.text(max_size=12)),
    max_size=40,
).map("".join)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(st.text(), TOONISH, TOONISH.map(lambda t: TS_FILE_START + t)))
def test_arbitrary_text_never_crashes(text: str) -> None:
    try:
        result = read_ts_toon(text)
    except ImportFormatError:
        return
    assert all(is_valid_id(row["id"]) for row in result.rows)
    assert len({row["id"] for row in result.rows}) == len(result.rows)
    looks_like_ts_toon(text)


def ts_escape(value: str) -> str:
    if value.startswith('"'):
        inner = value.replace("\\", "\\\\").replace('"', '\\"')
        return '"' + inner.replace("\n", "\\n").replace("\r", "\\r") + '"'
    escaped = value.replace("\\", "\\\\").replace("|", "\\|")
    return escaped.replace("\n", "\\n").replace("\r", "\\r")


KEYS = st.from_regex(r"[a-z][a-z0-9-]{0,15}", fullmatch=True)
CONTENT = st.text(
    alphabet=st.one_of(st.sampled_from('|\\\n\r"\t :;,[]'), st.characters(codec="utf-8")),
    max_size=60,
)


@settings(max_examples=200)
@given(st.lists(st.tuples(CONTENT, KEYS), max_size=8))
def test_ts_escaped_contents_read_back_exactly(items: list[tuple[str, str]]) -> None:
    lines = ["version: 1", TS_HEADER.format(n=len(items))]
    for i, (content, key) in enumerate(items):
        tags = "a;b" if i % 2 else ""
        lines.append(f"  {i:08x}|knowledge|{key}|{ts_escape(content)}|f.py|{tags}|2026-07-10||{i}|")
    result = read_ts_toon("\r\n".join(lines) if len(items) % 2 else "\n".join(lines))
    assert [row["content"] for row in result.rows] == [content for content, _ in items]
    assert [row["key"] for row in result.rows] == [key for _, key in items]
    assert [row["accessed"] for row in result.rows] == [str(i) for i in range(len(items))]
    assert result.repairs == [] and result.skipped == []
