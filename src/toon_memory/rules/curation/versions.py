"""``memory_consolidate(mode="versions")``: notes about an older version of a library.

Invariant: an entry is superseded only by an active entry that names the
same subject (the word before a version number: "React 18", "react@18.2",
"Next.js v14", "vite ^5.0.0") at a strictly newer version AND is about the
same thing: both keys name the subject, the keys differ only in their
version digits, or the contents with their numbers left out have Jaccard
> 0.5. Numbers that read as quantities ("30 seconds", "port 8080", "3
retries") are not versions. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from toon_memory.model.entry import Entry
from toon_memory.rules.curation.plans import (
    SUPERSEDE,
    ConsolidationPlan,
    Removal,
    by_preference,
    pinned,
)
from toon_memory.rules.curation.similarity import DUPLICATE_JACCARD, jaccard, term_set

_MENTION = re.compile(
    r"(?<![\w.@/-])([A-Za-z][A-Za-z0-9+#]*(?:[._-][A-Za-z][A-Za-z0-9+#]*)*)"
    r"(?:\s*@\s*|\s+(?:version\s+)?|\s*(?=[\^~]))[\^~]?(?:>=)?v?"
    r"(\d{1,4}(?:\.\d{1,5}){0,3})(?:\.x)?(?![\w%.]*\d)(?![\w%])"
)
_UNITS = re.compile(
    r"\s*(?:%|ms|s|sec|secs|seconds?|min|mins|minutes?|h|hours?|days?|weeks?|months?|years?|"
    r"px|em|rem|kb|mb|gb|tb|k|x|times|items?|entries|rows|lines?|files?|retries|requests?|"
    r"users?|tokens?|chars?|characters|bytes?|workers?|threads?|connections?|steps?)\b",
    re.IGNORECASE,
)
#: Words that precede numbers without naming a library.
_NOT_SUBJECT_WORDS = (
    "a an the and or of to in on at by for from with into than then is are was were be been "
    "use uses using used upgrade upgraded upgrading migrate migrated move moved bump bumped "
    "pin pinned keep set after before about over under only every each last first next max "
    "min limit size port step phase line page version release rule tier stage sprint level "
    "item chapter section part issue pr ticket bug error code status http https day days "
    "week month year hour minute second retry retries timeout top up down around within "
    "below above v vs via per no not all any"
)
_NOT_SUBJECTS = frozenset(_NOT_SUBJECT_WORDS.split())


@dataclass(frozen=True)
class Mention:
    """A subject named at a version: ``react`` at (18, 2, 0)."""

    subject: str
    version: tuple[int, ...]
    text: str


def version_mentions(text: str) -> list[Mention]:
    """Every "<subject> <version>" in ``text``, in order."""
    found: list[Mention] = []
    for match in _MENTION.finditer(text):
        name, number = match.group(1), match.group(2)
        subject = re.sub(r"[^a-z0-9+#]", "", name.casefold())
        if len(subject) < 2 or name.casefold() in _NOT_SUBJECTS or subject.isdigit():
            continue
        if _UNITS.match(text, match.end()):
            continue
        parts = tuple(int(p) for p in number.split("."))
        found.append(Mention(subject, parts + (0,) * (4 - len(parts)), match.group(0).strip()))
    return found


def _key_words(key: str) -> set[str]:
    return {re.sub(r"[^a-z0-9+#]", "", w) for w in re.split(r"[-_./\s]+", key.casefold()) if w}


def _key_stem(key: str) -> str:
    return re.sub(r"[-_.]*v?\d+(?:[._-]\d+)*", "", key.casefold()).strip("-_.")


def _without_numbers(text: str) -> frozenset[str]:
    return frozenset(t for t in term_set(text) if not t.isdigit())


def same_subject(older: Entry, newer: Entry, subject: str) -> bool:
    """Whether two entries that name ``subject`` at two versions are about the same thing."""
    if subject in _key_words(older.key) and subject in _key_words(newer.key):
        return True
    stem = _key_stem(older.key)
    if stem and stem == _key_stem(newer.key) and stem != older.key.casefold():
        return True
    a, b = _without_numbers(older.content), _without_numbers(newer.content)
    return jaccard(a, b) > DUPLICATE_JACCARD


def subject_versions(entries: Iterable[Entry]) -> dict[str, list[tuple[tuple[int, ...], Entry]]]:
    """subject -> (the newest version an entry names it at, the entry), for active entries."""
    table: dict[str, dict[str, tuple[tuple[int, ...], Entry]]] = {}
    for entry in entries:
        if not entry.active:
            continue
        for mention in version_mentions(entry.content):
            row = table.setdefault(mention.subject, {})
            best = row.get(entry.id)
            if best is None or mention.version > best[0]:
                row[entry.id] = (mention.version, entry)
    return {
        subject: sorted(row.values(), key=lambda p: p[0], reverse=True)
        for subject, row in sorted(table.items())
        if len({version for version, _ in row.values()}) > 1
    }


def _label(version: tuple[int, ...]) -> str:
    parts = list(version)
    while len(parts) > 1 and parts[-1] == 0:
        parts.pop()
    return ".".join(map(str, parts))


def plan_versions(entries: Sequence[Entry]) -> ConsolidationPlan:
    """Entries about an older version of a subject, superseded by the newest related one."""
    removals: list[Removal] = []
    removed: set[str] = set()
    for subject, rows in subject_versions(entries).items():
        newest = rows[0][0]
        winners = by_preference(e for v, e in rows if v == newest)
        for version, entry in rows:
            if version == newest or entry.id in removed or pinned(entry):
                continue
            keep = next(
                (w for w in winners if w.id not in removed and same_subject(entry, w, subject)),
                None,
            )
            if keep is None:
                continue
            reason = f"{subject} {_label(version)} -> {_label(newest)}"
            removals.append(Removal(entry, SUPERSEDE, reason, keep, 1.0))
            removed.add(entry.id)
    kept = {r.keep.id for r in removals if r.keep is not None}
    return ConsolidationPlan("versions", tuple(r for r in removals if r.entry.id not in kept))
