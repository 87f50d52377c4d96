"""``Memory``: the one core API. The CLI, the MCP server and the viewer are thin adapters over it.

Invariant: every change goes through ``Store.mutate`` (validated first, then
one locked, journaled read-modify-write), so a call that returns is durable
and two processes never lose each other's writes. Reads never write
``data.toon``; recall only appends to the access log.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import timedelta
from pathlib import Path
from typing import Any

from toon_memory import remember as rules
from toon_memory.archiving import ArchiveResult, select_for_archive
from toon_memory.clock import is_expired, now_iso, resolve_since, today
from toon_memory.config import Config, load_config
from toon_memory.errors import InputError, NotFoundError
from toon_memory.maintenance import MaintenanceMixin
from toon_memory.model import CATEGORIES, Entry, EntryMap, Summary, split_list
from toon_memory.recalling import RecallMixin
from toon_memory.remember import RememberResult
from toon_memory.scoring import evidence_level, find_conflicts, quality_score
from toon_memory.stats import Stats, compute_stats
from toon_memory.store import journal
from toon_memory.store.paths import MemoryPaths, find_project_root, home_dir
from toon_memory.store.state import State
from toon_memory.store.store import Store
from toon_memory.tagging import infer_tags
from toon_memory.transfer import TransferMixin

FORGET_ACTIONS = ("soft", "hard", "restore", "supersede")
TAG_ACTIONS = ("add", "remove", "set")


def _build_engine(entries: EntryMap) -> Any:
    from toon_memory.search import Engine

    return Engine.over(entries)


class Memory(RecallMixin, MaintenanceMixin, TransferMixin):
    """A project's (or the global) memory.

    Recall lives in ``recalling.py``, backups/compaction/doctor in
    ``maintenance.py``, export/import in ``transfer.py``.
    """

    def __init__(self, project: str | Path | None = None, *, global_store: bool = False) -> None:
        if global_store:
            self.root = home_dir()
            self.paths = MemoryPaths.for_global()
        else:
            self.root = find_project_root(project)
            self.paths = MemoryPaths.for_project(self.root)
        self.store = Store(self.paths, make_derived=_build_engine)
        self.categories: tuple[str, ...] = CATEGORIES

    # -- helpers ---------------------------------------------------------
    @property
    def config(self) -> Config:
        return load_config(self.paths.config)

    def _state(self) -> State:
        return self.store.state()

    def notices(self) -> list[str]:
        """Messages from loading (e.g. a migrated TypeScript file), shown once."""
        state = self.store.loaded()
        if state is None:
            return []
        notes, state.notices = state.notices, []
        return notes

    def entries(self, *, include_inactive: bool = False) -> list[Entry]:
        """Entries in file order (active only unless asked)."""
        values = self._state().entries.values()
        return [e for e in values if include_inactive or e.active]

    def _find(self, state: State, id_or_key: str, field: str = "key") -> Entry:
        value = str(id_or_key or "").strip()
        if not value:
            raise InputError(field, "must not be empty")
        entry = state.entries.get(value) or state.by_key(value)
        if entry is None:
            older = [e for e in state.entries.values() if e.key == value]
            if not older:
                raise NotFoundError(field, value)
            entry = max(older, key=lambda e: e.updated)
        return entry

    # -- remember --------------------------------------------------------
    def remember(
        self, category: str, key: str, content: str, *, file: str = "", tags: object = None,
        links: object = None, ttl: str = "", importance: str = "",
        confidence: float | str | None = None, origin: str = "agent", path_scope: str = "",
        meta: dict[str, Any] | None = None,
    ) -> RememberResult:  # fmt: skip
        """Save a memory; the same key merges into the existing entry."""
        draft = rules.draft_entry(
            category, key, content, file=file, tags=tags, links=links, ttl=ttl,
            importance=importance, confidence=confidence, origin=origin, path_scope=path_scope,
            categories=self.categories,
        )  # fmt: skip
        if meta:
            draft.entry.meta.update(meta)
        config = self.config
        inferred: list[str] = []
        if not draft.explicit_tags:
            inferred = infer_tags(f"{draft.entry.key} {draft.entry.content}", config.vocab)
            draft.entry.tags = list(inferred)
        # One search, before the lock: the nearest entries give both the
        # contradiction candidates and the "related" list of the result.
        near = self._engine().suggest(
            f"{draft.entry.key} {draft.entry.content}", limit=8, today=today()
        )
        result = self.store.mutate(lambda state: self._apply_remember(state, draft, config, near))
        result.inferred_tags = inferred
        result.related = [e for e in near if e.key != result.entry.key][:3]
        return result

    def _apply_remember(
        self, state: State, draft: rules.Draft, config: Config, near: list[Entry]
    ) -> tuple[list[journal.Op], RememberResult]:
        new = draft.entry
        existing = state.by_key(new.key)
        ops: list[journal.Op] = []
        history = None
        if existing is not None:
            new, history = rules.merge_entries(
                existing, new, keep_first=config.merge == "keep-first",
                history_id=rules.new_id(state.entries),
            )  # fmt: skip
            if history is not None:
                ops.append(journal.put(state.persisted_row(history)))
        else:
            new.id = rules.new_id(state.entries)
        conflicts = find_conflicts(new, near)
        new.evidence = evidence_level(new, conflicts, lambda p: (self.root / p).exists())
        new.quality = max(quality_score(new, today()), existing.quality if existing else 0.0)
        ops.append(journal.put(state.persisted_row(new)))
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

    def _auto_archive(self, state: State, config: Config, exclude: str) -> list[Entry]:
        only_expired = not (config.archive_after_days or config.archive_cap)
        day = today().isoformat()
        if only_expired and (
            not config.archive_expired or not state.ttl_floor or state.ttl_floor >= day
        ):
            return []
        chosen = select_for_archive(state.entries.values(), config, today(), auto=True)
        chosen = [e for e in chosen if e.id != exclude]
        state.reset_ttl_floor()
        if chosen:
            self.store.write_archive(self.store.read_archive() + chosen)
        return chosen

    # -- lookups ---------------------------------------------------------
    def get(self, id_or_key: str) -> Entry:
        """The entry with this id, else the active entry with this key."""
        return self._find(self._state(), id_or_key, "id_or_key").copy()

    def history(self, key: str) -> list[Entry]:
        """Every version of a key (active and superseded), newest first."""
        versions = [e.copy() for e in self._state().entries.values() if e.key == key]
        if not versions:
            raise NotFoundError("key", key)
        return sorted(versions, key=lambda e: (e.active, e.updated), reverse=True)

    # -- changes ---------------------------------------------------------
    def _update(self, id_or_key: str, field: str, change: Any) -> Entry:
        def apply(state: State) -> tuple[list[journal.Op], Entry]:
            entry = self._find(state, id_or_key, field).copy()
            change(entry)
            entry.updated = now_iso()
            return [journal.put(state.persisted_row(entry))], entry

        return self.store.mutate(apply)

    def forget(self, id_or_key: str, action: str = "soft", new_key: str = "") -> Entry:
        """soft: mark obsolete; hard: delete; restore: make active again; supersede: by ``new_key``."""
        if action not in FORGET_ACTIONS:
            raise InputError(
                "action", f"must be one of {', '.join(FORGET_ACTIONS)}; got {action!r}"
            )
        if action == "supersede" and not str(new_key or "").strip():
            raise InputError("new_key", "is required when action is 'supersede'")
        return self.store.mutate(
            lambda state: self._apply_forget(state, id_or_key, action, new_key)
        )

    def _apply_forget(
        self, state: State, id_or_key: str, action: str, new_key: str
    ) -> tuple[list[journal.Op], Entry]:
        if action == "restore":
            return self._apply_restore(state, id_or_key)
        entry = self._find(state, id_or_key, "id_or_key").copy()
        if action == "hard":
            return [journal.delete(entry.id)], entry
        entry.updated = now_iso()
        if action == "soft":
            entry.status = "obsolete"
            return [journal.put(state.persisted_row(entry))], entry
        successor = self._find(state, new_key, "new_key").copy()
        entry.status, entry.superseded_on = "superseded", today().isoformat()
        entry.links = split_list([*entry.links, f"superseded_by:{successor.key}"], " ")
        successor.links = split_list([*successor.links, f"supersedes:{entry.key}"], " ")
        return [
            journal.put(state.persisted_row(entry)),
            journal.put(state.persisted_row(successor)),
        ], entry

    def _apply_restore(self, state: State, id_or_key: str) -> tuple[list[journal.Op], Entry]:
        try:
            entry = self._find(state, id_or_key, "id_or_key").copy()
            ops: list[journal.Op] = []
        except NotFoundError:
            archived = self.store.read_archive()
            match = [e for e in archived if id_or_key in (e.id, e.key)]
            if not match:
                raise
            entry = match[-1]
            self.store.write_archive([e for e in archived if e.id != entry.id])
            ops = []
        clash = state.by_key(entry.key)
        if clash is not None and clash.id != entry.id:
            raise InputError("id_or_key", f"key {entry.key!r} is already active as {clash.id}")
        entry.status, entry.superseded_on, entry.updated = "active", "", now_iso()
        ops.append(journal.put(state.persisted_row(entry)))
        return ops, entry

    def pin(self, key: str, priority: int = 1) -> Entry:
        """Pin an entry: it leads every recall, by priority (1-5, 1 first)."""
        level = int(rules.check_number(priority, "priority", 1, 5, int))
        return self._update(key, "key", lambda e: setattr(e, "priority", level))

    def unpin(self, key: str) -> Entry:
        return self._update(key, "key", lambda e: setattr(e, "priority", 0))

    def tag(self, keys: str | Sequence[str], action: str, tags: object) -> list[Entry]:
        """Add, remove or set tags on entries given by key or id."""
        if action not in TAG_ACTIONS:
            raise InputError("action", f"must be one of {', '.join(TAG_ACTIONS)}; got {action!r}")
        names = split_list(keys, " ,;")
        wanted = split_list(tags, ";,")
        if not names:
            raise InputError("keys", "must name at least one entry")
        if not wanted and action != "set":
            raise InputError("tags", "must not be empty")

        def apply(state: State) -> tuple[list[journal.Op], list[Entry]]:
            changed = []
            for name in names:
                entry = self._find(state, name, "keys").copy()
                if action == "add":
                    entry.tags = split_list(entry.tags + wanted, ";")
                elif action == "remove":
                    entry.tags = [t for t in entry.tags if t not in wanted]
                else:
                    entry.tags = list(wanted)
                entry.updated = now_iso()
                changed.append(entry)
            return [journal.put(state.persisted_row(e)) for e in changed], changed

        return self.store.mutate(apply)

    def summary(self, file: str, text: str | None = None) -> Summary | None:
        """Save a file's summary (with ``text``) or get it (without)."""
        name = str(file or "").strip()
        if not name:
            raise InputError("file", "must not be empty")
        if text is None:
            return self._state().summaries.get(name)
        if not str(text).strip():
            raise InputError("text", "must not be empty")
        saved = Summary(name, str(text), today().isoformat())
        self.store.mutate(
            lambda state: ([journal.put_summary(name, saved.summary, saved.date)], None)
        )
        return saved

    # -- views -----------------------------------------------------------
    def stats(self) -> Stats:
        return compute_stats(
            self._state().entries.values(), today(), len(self.store.read_archive())
        )

    def diff(self, since: str = "24h", type: str = "all") -> dict[str, Any]:
        """Entries created or updated since a date (``24h``, ``7d`` or ``YYYY-MM-DD``)."""
        if type not in ("all", "created", "updated"):
            raise InputError("type", f"must be all, created or updated; got {type!r}")
        start = resolve_since(since).isoformat()
        created, updated = [], []
        for entry in self.entries():
            if entry.created[:10] >= start:
                created.append(entry.copy())
            elif entry.updated[:10] >= start:
                updated.append(entry.copy())
        return {
            "since": start,
            "created": created if type in ("all", "created") else [],
            "updated": updated if type in ("all", "updated") else [],
        }

    def archive(self, older_than_days: int | None = None) -> ArchiveResult:
        """Move stale, expired and (beyond the cap) least useful entries to archive.toon.

        Stale means unused (neither dated nor recalled) for 30 days, or ``older_than_days``.
        """
        config = self.config
        if older_than_days is not None:
            days = int(rules.check_number(older_than_days, "older_than_days", 1, 36_500, int))
            config = replace(config, archive_after_days=days)

        def apply(state: State) -> tuple[list[journal.Op], ArchiveResult]:
            moved = select_for_archive(state.entries.values(), config, today(), auto=False)
            if moved:
                self.store.write_archive(self.store.read_archive() + [e.copy() for e in moved])
            remaining = sum(1 for e in state.entries.values() if e.active) - len(moved)
            return [journal.delete(e.id) for e in moved], ArchiveResult(moved, remaining)

        return self.store.mutate(apply)

    def expired(self) -> list[Entry]:
        return [e for e in self.entries() if is_expired(e.ttl)]

    def recently_changed(self, days: int = 7) -> list[Entry]:
        start = (today() - timedelta(days=days)).isoformat()
        return [e for e in self.entries() if e.updated[:10] >= start]
