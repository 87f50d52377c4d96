"""What an import reads: a file's rows (an export's JSON decoded a row at a time, a JSON
list, a .toon file) and what it learns of them before checking any.

Invariant: a file over ``limits.importBytes``, nested past ``limits.importDepth``, empty,
of a newer format, not UTF-8 or not a memory at all is refused whole
(``ImportFormatError`` naming the file, exit 2) before any row is checked; an
``Incoming`` gives the same rows, in the same order, each time it is read, and its
``Survey`` counts them as they are. No write.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toon_memory.errors import CorruptFileError, ImportFormatError, InputError, StoreError
from toon_memory.model.entry import Summary
from toon_memory.model.settings import Limits
from toon_memory.rules.remember import DEFAULT_LIMITS

if TYPE_CHECKING:
    from toon_memory.rules.import_json import Entries


def read_import_bytes(path: Path, most: int = DEFAULT_LIMITS.import_bytes) -> bytes:
    """The bytes of a file to import, at most ``most``; InputError naming the file otherwise."""
    try:
        if path.is_file() and path.stat().st_size > most:
            raise ImportFormatError(_too_big(path, most))
        with path.open("rb") as handle:
            raw = handle.read(most + 1)
    except FileNotFoundError:
        raise InputError("file", f"{path} does not exist") from None
    except IsADirectoryError:
        raise InputError("file", f"{path} is a folder, not a file") from None
    except OSError as exc:
        raise InputError("file", f"{path} cannot be read ({exc.strerror})") from None
    if len(raw) > most:
        raise ImportFormatError(_too_big(path, most))
    return raw


def _too_big(path: Path, most: int) -> str:
    return f"{path} is over the import limit of {most} bytes (limits.importBytes in config.json)"


def read_import_text(path: Path, most: int = DEFAULT_LIMITS.import_bytes) -> str:
    """The text of a file to import; a clear error when it is missing, too big or not UTF-8."""
    try:
        return read_import_bytes(path, most).decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ImportFormatError(f"{path}: not UTF-8 text") from None


def parse_import_json(text: str, path: Path, depth: int = DEFAULT_LIMITS.import_depth) -> Any:
    """JSON of a file to import; ``ImportFormatError`` naming file and line when invalid
    or nested deeper than ``depth``."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ImportFormatError(f"{path}:{exc.lineno}: invalid JSON: {exc.msg}") from None
    except ValueError as exc:  # a number longer than Python reads (4,300 digits)
        raise ImportFormatError(f"{path}: invalid JSON: {str(exc).split(';')[0]}") from None
    except RecursionError:
        data = None
        deep = True
    else:
        from toon_memory.rules.imports import deeper_than  # not on every command's path

        deep = deeper_than(text, depth)
    if deep:
        raise ImportFormatError(
            f"{path}: nested deeper than {depth} levels (limits.importDepth in config.json)"
        )
    return data


class Survey:
    """What an import learns of its rows in one pass before checking them: how many items
    and objects, the positions of items that are not objects, and where each key is last
    an active row (with that row's date: ``_objects``' repeated-key rule)."""

    def __init__(self) -> None:
        self.items = 0
        self.objects = 0
        self.not_objects: list[int] = []
        self.last: dict[str, int] = {}
        #: The date of a repeated key's last active row (kept for repeated keys only).
        self.dates: dict[str, Any] = {}

    def visit(self, row: Any) -> None:
        self.items += 1
        if not isinstance(row, dict):
            self.not_objects.append(self.items)
            return
        if str(row.get("status") or "active") == "active" and row.get("key"):
            key = str(row["key"])
            if key in self.last:
                self.dates[key] = row.get("date")
            self.last[key] = self.objects
        self.objects += 1


@dataclass
class Incoming:
    """An import's rows, read twice (``items()``: the survey's pass, then the checks'; an
    export's JSON decoded a row at a time each), and what came with them."""

    items: Callable[[], Iterable[Any]]
    survey: Survey
    summaries: list[Summary]
    notes: list[str]
    plain: bool = False  # every text is known to be valid Unicode


def incoming_rows(
    rows: list[Any], summaries: list[Summary], notes: list[str], plain: bool = False
) -> Incoming:
    """Rows already in memory as an ``Incoming``."""
    survey = Survey()
    for row in rows:
        survey.visit(row)
    return Incoming(lambda: rows, survey, summaries, notes, plain)


def read_import_file(path: Path, limits: Limits = DEFAULT_LIMITS) -> Incoming:
    """The rows, summaries and reader notes of an export, a JSON list or a .toon file."""
    text = read_import_text(path, limits.import_bytes)
    if not text or text.isspace():  # (no stripped copy of a big file)
        raise ImportFormatError(f"{path} is empty: nothing to import")
    if text.lstrip()[:1] in ("{", "[") or path.suffix.lower() == ".json":
        return _json_incoming(text, path, limits.import_depth)
    from toon_memory.store.codec import decode_document

    try:
        doc = decode_document(text, path)
    except CorruptFileError as exc:
        where = f"{path}:{exc.line}" if exc.line else str(path)
        raise ImportFormatError(
            f"{where}: not a file toon-memory imports ({exc.problem}); use an export (JSON), "
            "a JSON list of entries, or a data.toon"
        ) from None
    except StoreError as exc:  # a newer format
        raise ImportFormatError(str(exc)) from None
    return incoming_rows([e.to_dict() for e in doc.entries], doc.summaries, list(doc.repairs))


def _json_incoming(text: str, path: Path, depth: int) -> Incoming:
    """An import's JSON: its entries list decoded a row at a time (``rules.import_json``)
    when it has our shapes and is not nested past ``depth``, else parsed whole (which
    answers, or names the error, the same)."""
    from toon_memory.rules.import_json import NotStreamed, scan
    from toon_memory.rules.imports import surrogate_free

    plain, survey = surrogate_free(text), Survey()
    try:
        found = scan(text, survey.visit, depth)
    except NotStreamed:
        pass
    else:
        _check_version(found.head, path)
        summaries = _json_summaries(found.head, survey, path)
        return Incoming(_reread(path, found), survey, summaries, [], plain)
    data = parse_import_json(text, path, depth)
    _check_version(data, path)
    rows = data.get("entries") if isinstance(data, dict) else data
    if not isinstance(rows, list):
        raise ImportFormatError(
            f"{path}: expected a JSON list of entries or an object with 'entries'"
        )
    found_rows = incoming_rows(rows, [], [], plain)
    found_rows.summaries = _json_summaries(data, found_rows.survey, path)
    return found_rows


def _reread(path: Path, found: Entries) -> Callable[[], Iterable[Any]]:
    """The scanned entries again: read back from the file a span at a time when its text is
    ASCII (a character is a byte; the text is let go), each span checked against its CRC
    taken now; else from the text kept in memory."""
    text, spans = found.text, found.spans
    offset = _size(path) - len(text)  # 3: a byte order mark ``read_import_text`` dropped
    if not text.isascii() or offset not in (0, 3):
        return found.items
    sums = [zlib.crc32(text[start:end].encode("ascii")) for start, end in spans]
    return lambda: _spans_of(path, offset, spans, sums)


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return -1


def _spans_of(
    path: Path, offset: int, spans: tuple[tuple[int, int], ...], sums: list[int]
) -> Iterator[Any]:
    """The items of each span read back from ``path``; ``ImportFormatError`` (before any
    write: rows are checked before the lock) when a span is not what was scanned."""
    from toon_memory.rules.import_json import chunk_items

    changed = ImportFormatError(f"{path} changed while it was imported; nothing was imported")
    try:
        with path.open("rb") as handle:
            for (start, end), crc in zip(spans, sums, strict=True):
                handle.seek(offset + start)
                data = handle.read(end - start)
                if zlib.crc32(data) != crc:
                    raise changed
                yield from chunk_items(data.decode("ascii"))
    except OSError as exc:
        raise ImportFormatError(
            f"{path} cannot be read again ({exc.strerror}); nothing was imported"
        ) from None


def _check_version(data: Any, path: Path) -> None:
    from toon_memory.store.codec import check_version

    try:
        check_version(data, path)
    except StoreError as exc:
        raise ImportFormatError(str(exc)) from None


def _json_summaries(data: Any, survey: Survey, path: Path) -> list[Summary]:
    """An import JSON's summaries, once its entries are known to hold an object."""
    if survey.items and not survey.objects:
        raise ImportFormatError(f"{path}: holds no entry objects (each entry is a JSON object)")
    summaries: list[Summary] = []
    if isinstance(data, dict):
        for item in data.get("summaries") or []:
            if isinstance(item, dict) and item.get("file"):
                summaries.append(
                    Summary(
                        str(item["file"]), str(item.get("summary", "")), str(item.get("date", ""))
                    )
                )
    return summaries
