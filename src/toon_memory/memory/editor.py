"""The changes a memory accepts: remember, forget, restore, pin, tag, summaries, archive.

Invariant: every change is validated before the lock is taken, then applied
as one ``Store.mutate`` (a locked, journaled read-modify-write), so a call
that returns is durable and two processes never lose each other's writes.
A forget is soft unless asked otherwise; history is deleted only past the
newest ``historyVersions`` superseded versions of a key (config.json).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from toon_memory.errors import InputError, NotFoundError, quote
from toon_memory.model.checks import check_choice, check_whole
from toon_memory.model.clock import is_expired, now_iso, today
from toon_memory.model.entry import (
    FORGET_ACTIONS,
    TAG_ACTIONS,
    Entry,
    Summary,
    split_list,
)
from toon_memory.model.settings import Config
from toon_memory.rules import remember as rules
from toon_memory.rules.archiving import ArchiveResult, select_for_archive
from toon_memory.rules.remember import RememberResult
from toon_memory.rules.scoring import evidence_level, find_conflicts, quality_score
from toon_memory.rules.tagging import infer_tags
from toon_memory.store import journal
from toon_memory.store.config import load_config
from toon_memory.store.state import Lookup, State, StateNeeded
from toon_memory.store.store import Store

if TYPE_CHECKING:
    from toon_memory.memory.recaller import Recaller
    from toon_memory.rules.curation import ConsolidationPlan, PromotePlan

T = TypeVar("T")
Change = tuple[list[journal.Op], T]


def find_entry(state: Lookup, id_or_key: str, field: str = "key") -> Entry:
    """The entry with this id, else the active one with this key, else its newest version."""
    value = rules.normalise_key(str(id_or_key or "").strip())
    if not value:
        raise InputError(field, "must not be empty")
    entry = state.get(value) or state.by_key(value)
    if entry is None:
        older = state.with_key(value)
        if not older:
            raise NotFoundError(field, value)
        entry = max(older, key=lambda e: e.updated)
    return entry


def _all_entries(state: State) -> list[Entry]:
    """Every entry of ``state`` (active or not), in file order."""
    return list(state.entries.values())


@dataclass(frozen=True)
class Unpinned:
    """``Memory.unpin``: the entry, and whether it had a pin to remove (if not, no write)."""

    entry: Entry
    was_pinned: bool


#: The quality of a new entry saved with ``verbatim`` on (not scored; neither low nor high).
UNSCORED_QUALITY = 0.5


class Editor:
    """Applies changes to one memory through its store."""

    def __init__(self, store: Store, root: Path, recaller: Recaller) -> None:
        self.store = store
        self.root = root
        self._recaller = recaller
        #: Who makes the changes (a team token's name): stamped as ``meta.author`` on each
        #: entry a change writes, when set; "" leaves ``meta`` as the caller gave it.
        self.author = ""

    def _stamp(self, entry: Entry) -> Entry:
        if self.author:
            entry.meta["author"] = self.author
        return entry

    def config(self) -> Config:
        return load_config(self.store.paths.config)

    # -- remember --------------------------------------------------------
    def remember(self, draft: rules.Draft, config: Config | None = None) -> RememberResult:
        """Create or merge the entry of a validated draft."""
        config = config or self.config()
        inferred: list[str] = []
        if not draft.explicit_tags and not config.verbatim:
            inferred = infer_tags(f"{draft.entry.key} {draft.entry.content}", config.vocab)
            draft.entry.tags = list(inferred)
        # One search, before the lock: the nearest entries give both the
        # contradiction candidates and the "related" list of the result.
        near = self._recaller.suggest(f"{draft.entry.key} {draft.entry.content}", limit=8)
        result = self._mutate(lambda state: self._apply_remember(state, draft, config, near))
        result.inferred_tags = inferred
        result.related = [e for e in near if e.key != result.entry.key][:3]
        if draft.entry.ttl and is_expired(draft.entry.ttl, today()):
            result.warnings.append(
                f"TTL {draft.entry.ttl} is already past: the entry is expired at once "
                "(hidden from recall, archived by the next archive)"
            )
        return result

    def _mutate(self, change: Callable[[Lookup], Change[T]]) -> T:
        """A single-entry change: over the on-disk index when this process has no state."""
        return self.store.mutate_lean(change, self._recaller.lean)

    def _apply_remember(
        self, state: Lookup, draft: rules.Draft, config: Config, near: list[Entry]
    ) -> Change[RememberResult]:
        new, existing = draft.entry, state.by_key(draft.entry.key)
        ops: list[journal.Op] = []
        history = None
        if existing is not None:
            new, history = rules.merge_entries(
                existing, new, keep_first=config.merge == "keep-first",
                history_id=rules.new_id(state.taken),
            )  # fmt: skip
            if history is not None:
                ops.append(journal.put(state.persisted_row(history)))
                dropped = rules.versions_to_drop(
                    [*state.versions(new.key), history], config.history_versions
                )
                ops.extend(journal.delete(e.id) for e in dropped)
        else:
            new.id = rules.new_id(state.taken)
        conflicts = find_conflicts(new, near)
        new.evidence = evidence_level(new, conflicts, lambda p: (self.root / p).exists())
        if config.verbatim:  # not scored: the entry keeps the quality it had, else neutral
            new.quality = existing.quality if existing else UNSCORED_QUALITY
        else:
            new.quality = max(quality_score(new, today()), existing.quality if existing else 0.0)
        ops.append(journal.put(state.persisted_row(self._stamp(new))))
        result = RememberResult(
            new, created=existing is None, merged=existing is not None, history=history
        )
        result.warnings = [
            f"CONTRADICTION: overlaps {c.category} '{c.key}' ({c.id}): {c.content[:120]}"
            for c in conflicts
        ]
        archived = self._auto_archive(state, config, exclude=new.id)
        if archived:
            ops.extend(journal.delete(e.id) for e in archived)
            result.archived = archived
        return ops, result

    def _auto_archive(self, state: Lookup, config: Config, exclude: str) -> list[Entry]:
        if config.archive_max_entries and exclude not in state.taken:  # a new entry counts
            config = replace(config, archive_max_entries=max(1, config.archive_max_entries - 1))
        over = config.archive_max_entries and state.active_count() > config.archive_max_entries
        only_expired = not (config.archive_after_days or over)
        day, floor = today().isoformat(), state.lowest_ttl()
        if only_expired and (not config.archive_expired or not floor or floor >= day):
            return []
        if not isinstance(state, State):
            raise StateNeeded  # choosing what to archive reads every entry
        chosen = select_for_archive(state.entries.values(), config, today(), auto=True)
        chosen = [e for e in chosen if e.id != exclude]
        state.reset_ttl_floor()
        if chosen:
            self.store.add_to_archive(chosen)
        return chosen

    # -- single-entry changes ---------------------------------------------
    def unpin(self, key: str) -> Unpinned:
        with self._recaller.lookup() as state:
            entry = find_entry(state, key, "key")
        if not entry.priority:
            return Unpinned(entry.copy(), False)
        return Unpinned(self.update(key, "key", lambda e: setattr(e, "priority", 0)), True)

    def update(self, id_or_key: str, field: str, change: Callable[[Entry], Any]) -> Entry:
        """Apply ``change`` to a copy of one entry and save it."""

        def apply(state: Lookup) -> Change[Entry]:
            entry = find_entry(state, id_or_key, field).copy()
            change(entry)
            entry.updated = now_iso()
            return [journal.put(state.persisted_row(self._stamp(entry)))], entry

        return self._mutate(apply)

    def forget(self, id_or_key: str, action: str, new_key: str) -> Entry:
        action = check_choice(action, "action", FORGET_ACTIONS)
        if action == "supersede" and not str(new_key or "").strip():
            raise InputError("new_key", "is required when action is 'supersede'")
        if action == "restore":
            return self._mutate(lambda state: self._apply_restore(state, id_or_key))
        return self._mutate(lambda state: self._apply_forget(state, id_or_key, action, new_key))

    def _apply_forget(
        self, state: Lookup, id_or_key: str, action: str, new_key: str
    ) -> Change[Entry]:
        entry = find_entry(state, id_or_key, "id_or_key").copy()
        if action == "hard":
            return [journal.delete(entry.id)], entry
        entry.updated = now_iso()
        self._stamp(entry)
        if action == "soft":
            entry.status = "obsolete"
            return [journal.put(state.persisted_row(entry))], entry
        successor = find_entry(state, new_key, "new_key").copy()
        if successor.id == entry.id or successor.key == entry.key:
            raise InputError("new_key", f"{quote(new_key)} is the entry itself; name another one")
        entry.status, entry.superseded_on = "superseded", today().isoformat()
        entry.links = split_list([*entry.links, f"superseded_by:{successor.key}"], " ")
        successor.links = split_list([*successor.links, f"supersedes:{entry.key}"], " ")
        return [
            journal.put(state.persisted_row(entry)),
            journal.put(state.persisted_row(successor)),
        ], entry

    def _apply_restore(self, state: Lookup, id_or_key: str) -> Change[Entry]:
        try:
            entry = find_entry(state, id_or_key, "id_or_key").copy()
        except NotFoundError:
            archived = self.store.read_archive()
            match = [e for e in archived if id_or_key in (e.id, e.key)]
            if not match:
                raise
            entry = match[-1]
            self.store.take_from_archive(entry.id)
        clash = state.by_key(entry.key)
        if clash is not None and clash.id != entry.id:
            raise InputError("id_or_key", f"key {quote(entry.key)} is already active as {clash.id}")
        entry.status, entry.superseded_on, entry.updated = "active", "", now_iso()
        return [journal.put(state.persisted_row(self._stamp(entry)))], entry

    # -- batches (curation) ------------------------------------------------
    def consolidate(self, plan: Callable[[list[Entry]], ConsolidationPlan]) -> ConsolidationPlan:
        """Plan on the locked state's entries, then apply every removal and merge at once.

        A ``supersede`` removal marks its entry superseded by the kept one
        (links both ways), any other marks it obsolete; the kept entry of a
        merge takes the group's tags and links. One journaled write; the
        applied plan is returned.
        """
        return self.store.mutate(lambda state: self._apply_plan(state, plan(_all_entries(state))))

    def _apply_plan(self, state: State, plan: ConsolidationPlan) -> Change[ConsolidationPlan]:
        from toon_memory.rules.curation import SUPERSEDE

        changed: dict[str, Entry] = {}

        def edited(entry: Entry) -> Entry:
            if entry.id not in changed:
                changed[entry.id] = entry.copy()
            return changed[entry.id]

        for update in plan.updates:
            kept = edited(update.entry)
            kept.tags, kept.links = list(update.tags), list(update.links)
        day = today()
        for removal in plan.removals:
            gone = edited(removal.entry)
            gone.meta["consolidated"] = f"{plan.mode}: {removal.reason}"
            if removal.action == SUPERSEDE and removal.keep is not None:
                kept = edited(removal.keep)
                gone.status, gone.superseded_on = "superseded", day.isoformat()
                gone.links = split_list([*gone.links, f"superseded_by:{kept.key}"], " ")
                kept.links = split_list([*kept.links, f"supersedes:{gone.key}"], " ")
            else:
                gone.status = "obsolete"
        stamp = now_iso()
        for entry in changed.values():
            entry.updated = stamp
            if entry.active:
                entry.quality = max(entry.quality, quality_score(entry, day))
        return [journal.put(state.persisted_row(self._stamp(e))) for e in changed.values()], plan

    def promote(self, plan: Callable[[list[Entry]], PromotePlan]) -> PromotePlan:
        """Plan on the locked state's entries, then raise each promoted draft's confidence."""

        def apply(state: State) -> Change[PromotePlan]:
            chosen = plan(_all_entries(state))
            stamp, ops = now_iso(), []
            for draft in chosen.promote:
                entry = draft.copy(confidence=chosen.confidence, updated=stamp)
                ops.append(journal.put(state.persisted_row(self._stamp(entry))))
            return ops, chosen

        return self.store.mutate(apply)

    def replace_content(
        self, id_or_key: str, content: str, field: str = "key"
    ) -> tuple[Entry, Entry | None]:
        """Give an active entry new content; the old version stays as superseded history.

        The same merge as re-remembering the key (whatever ``config.merge``
        says). Returns (entry, history); history is None, and nothing is
        written, when the content is unchanged.
        """

        def apply(state: Lookup) -> Change[tuple[Entry, Entry | None]]:
            entry = find_entry(state, id_or_key, field)
            if not entry.active:
                raise InputError(field, f"{quote(entry.key)} is {entry.status}; restore it first")
            if entry.content == content:
                return [], (entry.copy(), None)
            new = entry.copy(content=content, date=today().isoformat(), updated=now_iso())
            merged, history = rules.merge_entries(
                entry, new, keep_first=False, history_id=rules.new_id(state.taken)
            )
            merged.quality = max(entry.quality, quality_score(merged, today()))
            ops = [journal.put(state.persisted_row(self._stamp(merged)))]
            if history is not None:
                ops.insert(0, journal.put(state.persisted_row(history)))
            return ops, (merged, history)

        return self._mutate(apply)

    def tag(
        self, keys: str | Sequence[str], action: str, tags: object, allow_secrets: bool = False
    ) -> list[Entry]:
        from toon_memory.rules.secrets import check_fields

        limits = self.config().limits
        joined = keys if isinstance(keys, str) else " ".join(map(str, keys or ()))
        rules.check_text(joined, "keys", limits, "query_bytes")
        rules.check_list(tags, "tags", ";,", limits)
        check_fields({"tags": tags}, allow_secrets)
        action = check_choice(action, "action", TAG_ACTIONS)
        names, wanted = split_list(keys, " ,;"), split_list(tags, ";,")
        if not names:
            raise InputError("keys", "must name at least one entry")
        if not wanted and action != "set":
            raise InputError("tags", "must not be empty")

        def apply(state: Lookup) -> Change[list[Entry]]:
            changed = []
            for name in names:
                entry = find_entry(state, name, "keys").copy()
                if action == "add":
                    entry.tags = split_list(entry.tags + wanted, ";")
                elif action == "remove":
                    entry.tags = [t for t in entry.tags if t not in wanted]
                else:
                    entry.tags = list(wanted)
                entry.updated = now_iso()
                changed.append(self._stamp(entry))
            return [journal.put(state.persisted_row(e)) for e in changed], changed

        return self._mutate(apply)

    def save_summary(self, file: str, text: str, allow_secrets: bool = False) -> Summary:
        from toon_memory.rules.secrets import check_fields

        if not str(text).strip():
            raise InputError("text", "must not be empty")
        check_fields({"file": file, "text": text}, allow_secrets)
        saved = Summary(file, str(text), today().isoformat())
        self._mutate(lambda state: ([journal.put_summary(file, saved.summary, saved.date)], None))
        return saved

    def archive(self, older_than_days: int | None) -> ArchiveResult:
        config = self.config()
        if older_than_days is not None:
            days = check_whole(older_than_days, "older_than_days", 1, 36_500)
            config = replace(config, archive_after_days=days)

        def apply(state: State) -> Change[ArchiveResult]:
            moved = select_for_archive(state.entries.values(), config, today(), auto=False)
            if moved:
                self.store.add_to_archive([e.copy() for e in moved])
            remaining = sum(1 for e in state.entries.values() if e.active) - len(moved)
            return [journal.delete(e.id) for e in moved], ArchiveResult(moved, remaining)

        return self.store.mutate(apply)
