"""Export and import for ``Memory``.

Invariant: export writes every entry (all statuses) and summary as JSON
``{"version": 1, "entries": [...], "summaries": [...]}`` to a file outside
any memory folder, in a folder that exists (it creates none); import reads
that, a plain JSON list of entry objects (at least key and content), or a
``.toon`` file (ours or the TypeScript original's), adds entries whose key is
not active yet, skips the others, and reports every skip and repair: nothing
is dropped silently. A file over ``limits.importBytes``, nested past
``limits.importDepth``, empty, of a newer format or not a memory at all is
refused whole (``ImportFormatError``, exit 2). Every row is validated as
``remember`` validates (``rules.imports``), before the lock is taken, then
everything comes in by one durable write (``store.bulk``: a journal append, or
for a big batch one new data.toon), so an import lands whole or not at all.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toon_memory.errors import QUOTE, quote
from toon_memory.model.checks import check_bool
from toon_memory.model.clock import today
from toon_memory.model.entry import Entry, Summary, is_valid_id
from toon_memory.model.settings import Limits
from toon_memory.rules.remember import new_id, versions_to_drop
from toon_memory.store.config import load_config

if TYPE_CHECKING:
    from toon_memory.memory.import_file import Incoming
    from toon_memory.rules.imports import Verdict
    from toon_memory.store.bulk import Batch
    from toon_memory.store.state import State
    from toon_memory.store.store import Store

#: ``progress(done, total)``: how many of an import's rows are checked.
Progress = Callable[[int, int], None]


@dataclass
class ImportReport:
    added: int = 0
    skipped: int = 0
    repaired: int = 0
    messages: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"added": self.added, "skipped": self.skipped, "repaired": self.repaired,
                "messages": list(self.messages)}  # fmt: skip


def _is_skip(note: str) -> bool:
    """A reader's note is either a skipped row or a repaired one, never both."""
    return note.startswith("skipped") or note.endswith(", skipped")


class _Stored:
    """What an import checks its rows against: the state, and (built on first need) the
    (key, content) pairs of every stored entry, so a duplicate costs no scan of them all."""

    def __init__(self, state: State) -> None:
        self.state = state
        self._pairs: set[tuple[str, str]] | None = None

    def holds(self, entry: Entry, seen: set[str]) -> bool:
        """An active key already taken, or the very same entry (id or key+content) stored."""
        state = self.state
        if entry.active:
            return state.by_key(entry.key) is not None or entry.key in seen
        same = state.entries.get(entry.id)
        if same is not None and same.key == entry.key:
            return True
        if self._pairs is None:
            self._pairs = {(e.key, e.content) for e in state.entries.values()}
        return (entry.key, entry.content) in self._pairs


def category_notice(unknown: Counter[str]) -> str:
    """The one report line about foreign categories (``""`` when there were none)."""
    if not unknown:
        return ""
    counts = ", ".join(f"{name or '(empty)'} ×{n}" for name, n in sorted(
        unknown.items(), key=lambda item: (-item[1], item[0])))  # fmt: skip
    total = sum(unknown.values())
    return (f"{total} entr{'y' if total == 1 else 'ies'} with a category toon-memory does not "
            f"have ({counts}): stored as knowledge, the original kept as a tag and in "
            "meta.category")  # fmt: skip


def _label(key: str, number: int) -> str:
    """``entry N (key)`` as the report names a row (the key left out when it holds a secret)."""
    from toon_memory.rules.secrets import scan_text

    shown = quote(key[:QUOTE])[1:-1] + ("..." if len(key) > QUOTE else "")
    return f"entry {number}" + ("" if scan_text(key) else f" ({shown})")


def _admit(
    verdict: Verdict, key: str, number: int, stored: _Stored, seen: set[str],
    report: ImportReport, unknown: Counter[str],
) -> Entry | None:  # fmt: skip
    """The checked row's entry when it comes in (a fresh id when its own is unusable),
    else None; the report counts and names every skip and repair."""
    entry = verdict.entry
    if entry is None:
        report.skipped += 1
        report.messages.append(f"{_label(key, number)}: skipped: {verdict.problem}")
        return None
    if stored.holds(entry, seen):
        report.skipped += 1
        report.messages.append(f"{_label(key, number)}: skipped: already in memory")
        return None
    if verdict.foreign:
        unknown[verdict.foreign] += 1
    if verdict.repairs or verdict.foreign:
        report.repaired += 1
    if verdict.repairs:
        report.messages.append(f"{_label(key, number)}: " + "; ".join(verdict.repairs))
    if not is_valid_id(entry.id) or entry.id in stored.state.entries:
        entry.id = new_id(stored.state.entries)
    if entry.active:
        seen.add(entry.key)
    return entry


def _start_report(incoming: Incoming) -> ImportReport:
    """A report counting the reader's notes and the items that are not objects."""
    notes = list(incoming.notes)
    notes += [f"entry {n}: not an object, skipped" for n in incoming.survey.not_objects]
    report = ImportReport(messages=list(notes))
    skipped = sum(1 for note in notes if _is_skip(note))
    report.skipped += skipped
    report.repaired += len(notes) - skipped
    return report


def _objects(incoming: Incoming, report: ImportReport, keys: list[str]) -> Iterator[dict[str, Any]]:
    """The rows that are objects, in order, each key appended to ``keys`` (the report's
    label). A key repeated inside one import file: the last row wins, earlier ones become
    history (superseded on the last one's date)."""
    last, dates = incoming.survey.last, incoming.survey.dates
    number = 0
    for row in incoming.items():
        if not isinstance(row, dict):
            continue
        key = str(row.get("key") or "")
        found = last.get(key)
        if found is not None and found != number and str(row.get("status") or "active") == "active":
            row["status"] = "superseded"
            row["supersededOn"] = str(dates[key] or today().isoformat())
            report.repaired += 1
            report.messages.append(
                f"entry {number + 1} ({key}): key repeated later in the file; kept as history"
            )
        keys.append(str(row.get("key", "?")))
        number += 1
        yield row


def _past_horizon(state: State, admitted: list[Entry], keep: int, report: ImportReport) -> set[str]:
    """Ids of superseded versions beyond the newest ``keep`` per key, with what came in."""
    incoming: dict[str, list[Entry]] = {}
    for entry in admitted:
        if entry.status == "superseded":
            incoming.setdefault(entry.key, []).append(entry)
    dropped: set[str] = set()
    for key, new in incoming.items():
        old = versions_to_drop([*state.versions(key), *new], keep)
        dropped.update(e.id for e in old)
        if old:
            report.messages.append(
                f"{key}: {len(old)} oldest version(s) past the history horizon of {keep} "
                "(historyVersions in config.json) not kept"
            )
    return dropped


class Transfer:
    """Moves entries in and out of one memory."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def limits(self) -> Limits:
        return load_config(self.store.paths.config).limits

    def export(self, path: str | Path) -> int:
        """Write every entry and summary to a JSON file; return the entry count
        (``memory.exporting``: streamed from the on-disk index where it serves).

        The file must lie outside every memory folder and in a folder that exists.
        """
        from toon_memory.memory.exporting import export

        return export(self.store, path)

    def import_(
        self, path: str | Path, allow_secrets: bool = False, progress: Progress | None = None
    ) -> ImportReport:
        """Bring entries in from a file; duplicates by key are skipped and reported, and so
        are rows holding a credential unless ``allow_secrets``. ``progress(done, total)``
        hears how many rows are checked (a plain callback: the caller draws any bar)."""
        from toon_memory.memory.import_file import read_import_file

        return self._import(read_import_file(Path(path), self.limits()), allow_secrets, progress)

    def import_rows(
        self,
        rows: list[dict[str, Any]],
        summaries: list[Summary] | None = None,
        notes: list[str] | None = None,
        allow_secrets: bool = False,
        progress: Progress | None = None,
    ) -> ImportReport:
        """Bring in entry objects (export or file-column names); the same rules as ``import_``."""
        from toon_memory.memory.import_file import incoming_rows

        return self._import(incoming_rows(rows, list(summaries or []), list(notes or [])),
                            allow_secrets, progress)  # fmt: skip

    def _import(
        self, incoming: Incoming, allow_secrets: bool, progress: Progress | None
    ) -> ImportReport:
        """Rows are checked before the lock is taken, a row at a time (the checks are pure;
        ``incoming.plain``: every text is valid Unicode already); duplicates, ids and history
        are settled on the locked state, and the batch is written at once (``store.bulk``:
        a big one as a new data.toon)."""
        from toon_memory.rules.imports import check_rows  # not on every command's path
        from toon_memory.rules.secrets import ALLOW_FIELD
        from toon_memory.store.bulk import Batch, write_batch

        report, keys = _start_report(incoming), list[str]()
        summaries = incoming.summaries
        allow = check_bool(allow_secrets, ALLOW_FIELD)
        config = load_config(self.store.paths.config)
        verdicts = check_rows(_objects(incoming, report, keys), config.limits, allow,
                              progress, incoming.plain, incoming.survey.objects)  # fmt: skip
        del incoming  # (its text: an export's whole JSON, not needed for the write)

        def plan(state: State) -> tuple[Batch, ImportReport]:
            stored, seen, unknown = _Stored(state), set[str](), Counter[str]()
            admitted: list[Entry] = []
            taken = set(state.entries)
            for number, (verdict, key) in enumerate(zip(verdicts, keys, strict=True), start=1):
                entry = _admit(verdict, key, number, stored, seen, report, unknown)
                if entry is not None:
                    while entry.id in taken:
                        entry.id = new_id(taken)
                    taken.add(entry.id)
                    admitted.append(entry)
            dropped = _past_horizon(state, admitted, config.history_versions, report)
            batch = Batch([e for e in admitted if e.id not in dropped],
                          [i for i in dropped if i in state.entries],
                          [s for s in summaries if s.file not in state.summaries])  # fmt: skip
            report.added += len(admitted) - sum(1 for e in admitted if e.id in dropped)
            if unknown:
                report.messages.append(category_notice(unknown))
            return batch, report

        return write_batch(self.store, plan)
