"""A tolerant reader for the non-spec TOON written by the TypeScript toon-memory.

Invariant: no text of the input is lost silently. Every non-blank line ends up
in a row (its cells, or the whole raw row kept in ``content``), in a summary,
in ``skipped`` (with its line number), or is a structural line (a table header,
``version:``, ``summaries:``). Every change made to what the file says (a
rebuilt shifted row, a new id, normalised tags, padded cells) is reported as
one line in ``repairs``. The reader never raises on odd input; it raises
``ImportFormatError`` only for non-empty text that holds no entries table.
This module does no I/O.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field

from toon_memory.errors import ImportFormatError
from toon_memory.model import entry as model
from toon_memory.store.ts_cells import TS_PIPE_ESCAPE_RE, decode, place, quoted_end, split_cells

#: Column order of the TypeScript original; rows may carry more of these than the header names.
TS_ORDER: tuple[str, ...] = (
    "id", "category", "key", "content", "file", "tags", "date", "ttl", "accessed", "links",
    "quality", "confidence", "lastAccessed", "priority", "path_scope", "origin", "status",
    "supersededOn", "importance", "evidence",
)  # fmt: skip
_EXT_ORDER: tuple[str, ...] = (*TS_ORDER, "created", "updated")

_HEADER_RE = re.compile(
    r'^(?:(?P<key>[A-Za-z_][\w.-]*)|"(?P<qkey>[^"]*)")?'
    r"\[#?(?P<count>\d+)(?P<delim>[|\t,]?)\]\{(?P<fields>[^{}]*)\}:[ \t]*$"
)
_SUMMARIES_RE = re.compile(r"^summaries:[ \t]*$")
_VERSION_RE = re.compile(r"^version:[ \t]*\S*[ \t]*$")


def _row_start_re(delim: str) -> re.Pattern[str]:
    d = re.escape(delim)
    hex_id, any_id = rf"[0-9a-fA-F]{{8}}{d}", rf"[^\s{d}\"]{{1,64}}{d}[A-Za-z][\w-]{{0,31}}{d}"
    return re.compile(rf"^[ \t]+(?:{hex_id}|{any_id})")


_ROW_START = {d: _row_start_re(d) for d in "|\t,"}


@dataclass
class TsReadResult:
    """Rows keyed by our field names (unknown names go to meta via ``entry_from_row``)."""

    rows: list[dict[str, str]] = field(default_factory=list)
    summaries: list[dict[str, str]] = field(default_factory=list)
    repairs: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)


@dataclass
class _Record:
    line: int
    lines: list[str]

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


@dataclass
class _Header:
    """A table header line and, for an entries table, the records under it."""

    key: str
    fields: list[str]
    declared: int
    delim: str
    line: int
    records: list[_Record] = field(default_factory=list)


@dataclass
class _Ctx:
    result: TsReadResult
    row_lines: list[int] = field(default_factory=list)

    def skip(self, no: int, line: str) -> None:
        self.result.skipped.append(f"line {no}: {line}")

    def repair(self, no: int, row: dict[str, str] | None, text: str) -> None:
        where = f"line {no}" if row is None else f"line {no} (key {row.get('key', '')!r})"
        self.result.repairs.append(f"{where}: {text}")


def _parse_header(line: str, no: int) -> _Header | None:
    match = _HEADER_RE.match(line)
    if match is None:
        return None
    delim = match["delim"] or ","
    names = [n.strip().strip('"') for n in match["fields"].split(delim)]
    key = match["key"] or match["qkey"] or ""
    return _Header(key, [n for n in names if n], int(match["count"]), delim, no)


def _read_record(rec: _Record, header: _Header, ext: list[str], ctx: _Ctx) -> int:
    """Append the record's row; return how many extension fields it used."""
    placed = place(split_cells(rec.text, header.delim), header.fields, header.delim, ext)
    if placed is None and len(rec.lines) > 1:
        placed = place(split_cells(rec.lines[0], header.delim), header.fields, header.delim, ext)
        if placed is not None:
            _skip_tail(rec, placed[0], ctx)
    if placed is None:
        row = _plain_or_raw(rec, header, ctx)
        used = 0
    else:
        row, surplus, used = placed
        msg = f"content held {surplus} unescaped {header.delim!r}; cells rejoined into content"
        if surplus:
            ctx.repair(rec.line, row, msg)
    _normalise_tags(row, rec.line, ctx)
    ctx.result.rows.append(row)
    ctx.row_lines.append(rec.line)
    return used


def _skip_tail(rec: _Record, row: dict[str, str], ctx: _Ctx) -> None:
    tail = [(rec.line + i, text) for i, text in enumerate(rec.lines) if i and text.strip()]
    for no, text in tail:
        ctx.skip(no, text)
    ctx.repair(rec.line, row, f"{len(tail)} following line(s) did not fit the row; see skipped")


def _plain_or_raw(rec: _Record, header: _Header, ctx: _Ctx) -> dict[str, str]:
    """Cells in header order when they are not too many, else the whole raw row in content."""
    raw = split_cells(rec.text, header.delim)
    names = header.fields
    if len(raw) <= len(names):
        row = {name: decode(cell) for name, cell in zip(names, raw, strict=False)}
        row.update({name: "" for name in names[len(raw) :]})
        msg = f"row has {len(raw)} cells for {len(names)} columns; missing fields left empty"
        if len(raw) < len(names):
            ctx.repair(rec.line, row, msg)
        return row
    ci = names.index("content") if "content" in names else len(names)
    row = {name: decode(cell) for name, cell in zip(names[: min(ci, 3)], raw, strict=False)}
    row["content"] = rec.text
    if not row.get("key"):
        row["key"] = f"ts-import-line-{rec.line}"
    msg = f"{len(raw)} cells do not fit {len(names)} columns; whole raw row kept in content"
    ctx.repair(rec.line, row, msg)
    return row


def _normalise_tags(row: dict[str, str], no: int, ctx: _Ctx) -> None:
    tags = row.get("tags", "")
    if "," not in tags:
        return
    parts = [part.strip() for part in re.split("[,;]", tags)]
    row["tags"] = ";".join(part for part in parts if part)
    ctx.repair(no, row, f"tags {tags!r} separated by ','; now {row['tags']!r}")


def _read_section(header: _Header, ctx: _Ctx) -> None:
    ext = [name for name in _EXT_ORDER if name not in header.fields]
    widest = 0
    for rec in header.records:
        widest = max(widest, _read_record(rec, header, ext, ctx))
    named, found = len(header.fields), len(header.records)
    if widest:
        extra = ", ".join(ext[:widest])
        ctx.repair(header.line, None, f"header names {named} fields, rows carry up to "
                   f"{named + widest}; extra cells read as {extra}")  # fmt: skip
    if header.declared != found:
        msg = f"header declares {header.declared} rows, {found} follow; all were read"
        ctx.repair(header.line, None, msg)


def _fresh_id(seed: str, taken: set[str]) -> str:
    attempt = 0
    while True:
        new = hashlib.sha256(f"{seed}\0{attempt}".encode()).hexdigest()[:8]
        if new not in taken:
            return new
        attempt += 1


def _fix_ids(ctx: _Ctx, source: str) -> None:
    """Invalid ids and later duplicates get a fresh, deterministic, unused id."""
    rows = ctx.result.rows
    taken = {row.get("id", "").strip().lower() for row in rows}
    first_seen: dict[str, int] = {}
    for row, no in zip(rows, ctx.row_lines, strict=False):
        old = row.get("id", "")
        cand = old.strip().lower()
        if model.is_valid_id(cand) and cand not in first_seen:
            first_seen[cand] = no
            if cand != old:
                row["id"] = cand
                ctx.repair(no, row, f"id {old!r} normalised to {cand!r}")
            continue
        new = _fresh_id(f"{source}\0{no}\0{old}", taken)
        taken.add(new)
        row["id"] = new
        seen = first_seen.get(cand)
        why = f"duplicate id {old!r} (first on line {seen})" if seen else f"invalid id {old!r}"
        ctx.repair(no, row, f"{why}; new id {new!r}")


class _Scanner:
    """Groups lines into entries sections and records; files summaries and strays."""

    def __init__(self, ctx: _Ctx) -> None:
        self.ctx = ctx
        self.sections: list[_Header] = []
        self.mode = "top"
        self.summary_header: _Header | None = None
        self.record: _Record | None = None

    def feed(self, no: int, line: str) -> None:
        header = _parse_header(line, no)
        if header is not None or _SUMMARIES_RE.match(line):
            self.close()
            self._start(header, no, line)
        elif self.mode == "entries":
            self._entry_line(no, line)
        elif not line.strip():
            return
        elif self.mode.startswith("summar") and line[:1] in " \t":
            self._summary_line(no, line)
        elif self.mode == "other" and line[:1] in " \t":
            self.ctx.skip(no, line)
        else:
            self.mode = "top"
            if not _VERSION_RE.match(line):
                self.ctx.skip(no, line)

    def _start(self, header: _Header | None, no: int, line: str) -> None:
        if header is None:
            self.mode = "summaries"
        elif header.key in ("", "entries"):
            self.mode = "entries"
            self.sections.append(header)
        elif header.key == "summaries":
            self.mode, self.summary_header = "summary-table", header
        else:
            self.mode = "other"
            self.ctx.skip(no, line)

    def _entry_line(self, no: int, line: str) -> None:
        delim = self.sections[-1].delim
        if _ROW_START[delim].match(line):
            self.close()
            self.record = _Record(no, [line.lstrip(" \t")])
        elif self.record is not None:
            self.record.lines.append(line)
        elif line.strip():
            self.ctx.skip(no, line)

    def _summary_line(self, no: int, line: str) -> None:
        text = line.lstrip(" \t")
        if self.mode == "summary-table" and self.summary_header is not None:
            names = self.summary_header.fields
            cells = [decode(c) for c in split_cells(text, self.summary_header.delim)]
            if len(cells) > len(names) and "summary" in names:
                at, keep = names.index("summary"), len(cells) - len(names) + 1
                cells[at : at + keep] = [self.summary_header.delim.join(cells[at : at + keep])]
                self.ctx.repair(no, None, "summary held an unescaped delimiter; cells rejoined")
            self.ctx.result.summaries.append(dict(zip(names, cells, strict=False)))
            return
        parsed = _key_value(text)
        if parsed is None:
            self.ctx.skip(no, line)
        else:
            self.ctx.result.summaries.append({"file": parsed[0], "summary": parsed[1]})

    def close(self) -> None:
        record, self.record = self.record, None
        if record is None:
            return
        while len(record.lines) > 1 and not record.lines[-1].strip():
            record.lines.pop()
        self.sections[-1].records.append(record)


def _key_value(text: str) -> tuple[str, str] | None:
    """``file: summary`` (the file may be quoted); None when there is no key."""
    if text.startswith('"'):
        end = quoted_end(text, 0, ":")
        if end < 0:
            return None
        key, rest = decode(text[:end]), text[end + 1 :]
    else:
        key, sep, rest = text.partition(": ")
        if not sep:
            if not text.endswith(":"):
                return None
            key, rest = text[:-1], ""
    return key, decode(rest.lstrip(" "))


def read_ts_toon(text: str, source: str = "data.toon") -> TsReadResult:
    """Read a data.toon written by the TypeScript toon-memory (or any TOON table of entries).

    Raises ``ImportFormatError`` only when ``text`` is not blank and holds no entries table.
    """
    ctx = _Ctx(TsReadResult())
    lines = text.lstrip("\ufeff").split("\n")
    if not text.strip():
        return ctx.result
    scanner = _Scanner(ctx)
    for no, line in enumerate(lines, 1):
        scanner.feed(no, line.removesuffix("\r"))
    scanner.close()
    if not scanner.sections:
        raise ImportFormatError(
            f"{source}: no entries table found (expected a line like "
            "'entries[N|]{id|category|key|content|…}:')"
        )
    for header in scanner.sections:
        _read_section(header, ctx)
    _fix_ids(ctx, source)
    for notes in (ctx.result.repairs, ctx.result.skipped):
        notes.sort(key=lambda note: int(note.split(" ", 2)[1].rstrip(":")))
    return ctx.result


def looks_like_ts_toon(text: str) -> bool:
    """True when ``text`` has an entries table that is not spec TOON in our own layout."""
    header: _Header | None = None
    for line in text.lstrip("\ufeff").split("\n"):
        line = line.removesuffix("\r")
        found = _parse_header(line, 0)
        if found is not None:
            ours = found.key == "entries" and found.fields == list(model.FIELDS)
            if found.key in ("", "entries") and not ours:
                return True
            header = found if found.key == "entries" else None
        elif header is not None and line.strip():
            if line[:1] not in " \t":
                if not (_SUMMARIES_RE.match(line) or _VERSION_RE.match(line)):
                    return True
                header = None
            elif TS_PIPE_ESCAPE_RE.search(line) or len(
                split_cells(line.lstrip(" \t"), header.delim)
            ) > len(header.fields):
                return True
    return False
