"""``Memory``: the one core API. The CLI, the MCP server and the viewer are thin adapters over it.

Invariant: every change goes through ``Store.mutate`` (validated first, then
one locked, journaled read-modify-write), so a call that returns is durable
and two processes never lose each other's writes. Reads never write
``data.toon``; recall only appends to the access log. ``Memory`` holds its
store and the parts that act on it (``Recaller``, ``Editor``,
``Maintenance``, ``Transfer``) and owns no rule itself beyond composing them.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toon_memory.errors import InputError, NotFoundError
from toon_memory.memory.editor import Editor, Unpinned, find_entry
from toon_memory.memory.maintenance import Checkpoint, Maintenance
from toon_memory.memory.recaller import PRIMER_TOP, Primer, Recaller
from toon_memory.memory.transfer import Transfer
from toon_memory.memory.upkeep import Upkeep
from toon_memory.model.checks import check_limit, check_whole
from toon_memory.model.clock import is_expired, resolve_since, today
from toon_memory.model.entry import Entry, EntryMap, Summary
from toon_memory.model.settings import Config
from toon_memory.rules import remember as rules
from toon_memory.rules.budgets import DEFAULT_BUDGET_TOKENS
from toon_memory.rules.changes import Diff, diff_entries
from toon_memory.rules.stats import Stats
from toon_memory.store.config import load_config
from toon_memory.store.paths import MemoryPaths, find_project_root, home_dir
from toon_memory.store.store import Store

if TYPE_CHECKING:
    from toon_memory.memory.briefs import Briefs
    from toon_memory.memory.curation import Curation
    from toon_memory.memory.hooks import HookCall, HookStart
    from toon_memory.memory.security import Security
    from toon_memory.memory.sessions import Sessions
    from toon_memory.memory.sharing import Sharing
    from toon_memory.rules.archiving import ArchiveResult
    from toon_memory.rules.remember import RememberResult
    from toon_memory.search import Engine, RecallResult


#: Days of changes the "current" view (``Memory.current``) shows.
CURRENT_DAYS = 7


def _build_engine(entries: EntryMap) -> Engine:
    from toon_memory.search import Engine

    return Engine.over(entries)


def _index_version() -> str:
    from toon_memory.search import INDEX_VERSION

    return str(INDEX_VERSION)


def _open_store(paths: MemoryPaths, database: str | None, name: str, one_shot: bool) -> Store:
    from toon_memory.store.team import database_url

    url, version = database_url(database), _index_version()
    if url is None:
        return Store(paths, make_derived=_build_engine, derived_version=version, one_shot=one_shot)
    from toon_memory.store.team.team_store import TeamStore

    return TeamStore(paths, url, name, make_derived=_build_engine, derived_version=version)


class Memory(Upkeep):
    """A project's (or the global) memory."""

    def __init__(
        self,
        project: str | Path | None = None,
        *,
        global_store: bool = False,
        database: str | None = None,
        name: str | None = None,
        one_shot: bool = False,
    ) -> None:
        """``database`` (or ``TOON_MEMORY_DATABASE_URL``): keep the entries in that team
        database, as project ``name`` (default: the project folder's name). ``one_shot``:
        this process makes one call and exits (a CLI command, a hook): single-entry reads
        and writes go through the on-disk index whatever ``TOON_MEMORY_LEAN_BYTES`` says
        (``store.index_sync.LEAN_BYTES``), and a compaction that must read the state reads
        it bare (no search engine, no pickle cache)."""
        if global_store:
            self.root = home_dir()
            self.paths = MemoryPaths.for_global()
        else:
            self.root = find_project_root(project)
            self.paths = MemoryPaths.for_project(self.root)
        self.store = _open_store(self.paths, database, name or self.root.name, one_shot)
        self._recaller = Recaller(self.store, self.root)
        self._editor = Editor(self.store, self.root, self._recaller)
        self._upkeep = Maintenance(self.store, self.root, project=not global_store)
        self._transfer = Transfer(self.store)
        self._sessions: Sessions | None = None
        self._curation: Curation | None = None
        self._context: Briefs | None = None
        self._sharing: Sharing | None = None
        self._security: Security | None = None

    # -- parts (built on first use) ----------------------------------------
    @property
    def sessions(self) -> Sessions:
        """Parallel agent sessions: heartbeats, soft conflicts, observations, activity."""
        if self._sessions is None:
            from toon_memory.memory.sessions import Sessions

            self._sessions = Sessions(self.store, self.root, self._editor)
        return self._sessions

    @property
    def curation(self) -> Curation:
        """Consolidate, reflect, promote, compress."""
        if self._curation is None:
            from toon_memory.memory.curation import Curation

            self._curation = Curation(self.store, self.root, self._editor, self._recaller)
        return self._curation

    @property
    def sharing(self) -> Sharing:
        """The global store and GitHub Gist: export and import."""
        if self._sharing is None:
            from toon_memory.memory.sharing import Sharing

            self._sharing = Sharing(self.store, self.root, self._editor, self._transfer)
        return self._sharing

    @property
    def security(self) -> Security:
        """Encryption at rest (encrypt, decrypt) and the secrets vault."""
        if self._security is None:
            from toon_memory.memory.security import Security

            self._security = Security(self.store)
        return self._security

    @property
    def context(self) -> Briefs:
        """Briefs: brief, generate, diff, focus, health, export."""
        if self._context is None:
            from toon_memory.memory.briefs import Briefs

            self._context = Briefs(self.store, self.root, self._recaller, self.sessions)
        return self._context

    # -- state -----------------------------------------------------------
    @property
    def author(self) -> str:
        """Who makes the changes: stamped as ``meta.author`` on each entry a change writes
        ("" for none; a team server sets its token's name for each call)."""
        return self._editor.author

    @author.setter
    def author(self, name: str) -> None:
        self._editor.author = name

    @property
    def config(self) -> Config:
        return load_config(self.paths.config)

    def notices(self) -> list[str]:
        """Messages from loading (a migrated TypeScript file, a damaged journal set aside), once."""
        return self.store.take_notices()

    def entries(self, *, include_inactive: bool = False) -> list[Entry]:
        """Entries in file order (active only unless asked)."""
        with self._recaller.lookup() as state:
            return [e for e in state.each() if include_inactive or e.active]

    def get(self, id_or_key: str) -> Entry:
        """The entry with this id, else the active entry with this key."""
        with self._recaller.lookup() as state:
            return find_entry(state, id_or_key, "id_or_key").copy()

    def history(self, key: str) -> list[Entry]:
        """Every version of a key (active and superseded), newest first.

        Only the newest ``historyVersions`` superseded versions are kept (config.json).
        """
        key = rules.normalise_key(str(key or "").strip())
        with self._recaller.lookup() as state:
            versions = [e.copy() for e in state.with_key(key)]
        if not versions:
            raise NotFoundError("key", key)
        return sorted(versions, key=lambda e: (e.active, e.updated), reverse=True)

    # -- changes ---------------------------------------------------------
    def remember(
        self, category: str, key: str, content: str, *, file: str = "", tags: object = None,
        links: object = None, ttl: str = "", importance: str = "",
        confidence: float | str | None = None, origin: str = "agent", path_scope: str = "",
        meta: dict[str, Any] | None = None, allow_secrets: bool = False,
    ) -> RememberResult:  # fmt: skip
        """Save a memory; the same key merges into the existing entry.

        A credential in the key, content, tags, file, path scope or meta refuses
        the write (``InputError``) unless ``allow_secrets``.
        """
        from toon_memory.rules.secrets import check_entry

        config = self.config
        draft = rules.draft_entry(
            category, key, content, file=file, tags=tags, links=links, ttl=ttl,
            importance=importance, confidence=confidence, origin=origin, path_scope=path_scope,
            limits=config.limits,
        )  # fmt: skip
        if meta:
            draft.entry.meta.update(rules.check_meta(meta, config.limits))
        check_entry(draft.entry, allow_secrets)
        return self._editor.remember(draft, config)

    def forget(self, id_or_key: str, action: str = "soft", new_key: str = "") -> Entry:
        """soft: mark obsolete; hard: delete; restore: make active again; supersede: by ``new_key``."""
        return self._editor.forget(id_or_key, action, new_key)

    def pin(self, key: str, priority: int = 1) -> Entry:
        """Pin an entry: it leads every recall, by priority (1-5, 1 first)."""
        level = check_whole(priority, "priority", 1, 5)
        return self._editor.update(key, "key", lambda e: setattr(e, "priority", level))

    def unpin(self, key: str) -> Unpinned:
        """Remove an entry's pin (an entry with none is left as it is)."""
        return self._editor.unpin(key)

    def tag(
        self, keys: str | Sequence[str], action: str, tags: object, allow_secrets: bool = False
    ) -> list[Entry]:
        """Add, remove or set tags on entries given by key or id (no credential in a tag
        unless ``allow_secrets``)."""
        return self._editor.tag(keys, action, tags, allow_secrets)

    def summary(
        self, file: str, text: str | None = None, allow_secrets: bool = False
    ) -> Summary | None:
        """Save a file's summary (with ``text``, no credential in it unless ``allow_secrets``)
        or get it (without)."""
        limits = self.config.limits
        name = rules.check_text(file, "file", limits, "file_chars").strip()
        if not name:
            raise InputError("file", "must not be empty")
        if text is None:
            return self.store.state().summaries.get(name)
        text = rules.check_text(text, "text", limits)
        return self._editor.save_summary(name, text, allow_secrets)

    def archive(self, older_than_days: int | None = None) -> ArchiveResult:
        """Move stale, expired and (beyond the cap) least useful entries to archive.toon.

        Stale means unused (neither dated nor recalled) for 30 days, or ``older_than_days``.
        """
        return self._editor.archive(older_than_days)

    def checkpoint(self, note: str = "", allow_secrets: bool = False) -> Checkpoint:
        """A restorable backup, and a 7-day knowledge entry that names it and the state (no
        credential in ``note`` unless ``allow_secrets``: then neither is written)."""
        return self._upkeep.checkpoint(note, allow_secrets, self.remember)

    def session_state(
        self, action: str = "show", field: str | None = None,
        value: str | list[str] | tuple[str, ...] | None = None, allow_secrets: bool = False,
    ) -> dict[str, Any]:  # fmt: skip
        """SESSION-STATE.json at the project root: show, or set/add/clear a field (no
        credential in ``value`` unless ``allow_secrets``)."""
        from toon_memory.rules.secrets import check_fields
        from toon_memory.store.hot_state import apply_action

        joined = value if value is None or isinstance(value, str) else " ".join(map(str, value))
        rules.check_text(joined, "value", self.config.limits)
        check_fields({"value": value if action in ("set", "add") else None}, allow_secrets)
        return apply_action(self.root, action, field, value)

    # -- recall ----------------------------------------------------------
    def recall(
        self, query: str = "", *, mode: str = "flat", hops: int | None = None,
        limit: int | None = None, ids: str | Sequence[str] | None = None,
        budget: str = "normal", compact: bool = False, budget_tokens: int = 0,
        explain: bool = False, rrf: bool = True, session_bias: bool = False,
        path_scope: str = "", as_of: str = "", from_date: str = "", to_date: str = "",
        category: str = "", tags: object = None,
    ) -> RecallResult:  # fmt: skip
        """Ranked recall (see ``RecallOptions``); graph mode spreads 2 hops unless told otherwise.

        ``as_of`` reaches back as far as the kept history (``historyVersions`` per key).
        """
        from toon_memory.search import RecallOptions

        query = self._check_query(query, "query", limit)
        self._check_filters(ids, path_scope, tags)
        opts = RecallOptions(
            query=query, mode=mode, hops=hops, limit=limit,
            ids=ids if ids is None or isinstance(ids, str) else tuple(ids), budget=budget,
            compact=compact, budget_tokens=budget_tokens, explain=explain, rrf=rrf,
            session_bias=session_bias, path_scope=path_scope, as_of=as_of, from_date=from_date,
            to_date=to_date, category=category, tags=_tags(tags),
        )  # fmt: skip
        return self._recaller.recall(opts)

    def smart_recall(
        self, intent: str, *, hops: int = 2, explain: bool = False, budget_tokens: int = 0,
        session_bias: bool = True, limit: int | None = None,
    ) -> RecallResult:  # fmt: skip
        """One call combining BM25, graph, quality, freshness and decay."""
        from toon_memory.search import RecallOptions

        intent = self._check_query(intent, "intent", limit)
        if not intent.strip():
            raise InputError("intent", "must not be empty")
        opts = RecallOptions(
            query=intent, mode="graph", hops=hops, explain=explain, budget_tokens=budget_tokens,
            session_bias=session_bias, smart=True, limit=limit,
        )  # fmt: skip
        return self._recaller.recall(opts)

    def search(
        self, query: str = "", *, category: str = "", tags: object = None, from_date: str = "",
        to_date: str = "", path_scope: str = "", budget: str = "normal",
        session_bias: bool = False, limit: int | None = None, budget_tokens: int = 0,
        explain: bool = False,
    ) -> RecallResult:  # fmt: skip
        """Recall with filters: category, tags (all must match), dates, path scope."""
        return self.recall(
            query, category=category, tags=tags, from_date=from_date, to_date=to_date,
            path_scope=path_scope, budget=budget, session_bias=session_bias, limit=limit,
            budget_tokens=budget_tokens, explain=explain,
        )  # fmt: skip

    def visualize(self, query: str = "") -> RecallResult:
        """The entries the graph viewer highlights for ``query`` (ranked; no access recorded)."""
        from toon_memory.search import RecallOptions, RecallResult

        opts = RecallOptions(query=self._check_query(query, "query", None).strip(), pins=False)
        if not opts.query:  # nothing to highlight: the viewer shows every entry as it is
            return RecallResult(opts.validated())
        return self._recaller.rank(opts)

    def suggest(self, context: str, limit: int = 5) -> list[Entry]:
        """Entries related to a free-text context (no access recorded)."""
        return self._recaller.suggest(self._check_query(context, "context", limit), limit)

    def _check_query(self, text: object, field: str, limit: int | None) -> str:
        """A query-like text within ``limits.queryBytes`` and a limit from 1 to ``MAX_LIMIT``."""
        from toon_memory.search.options import MAX_LIMIT

        if limit is not None:
            check_limit(limit, MAX_LIMIT)
        return rules.check_text(text, field, self.config.limits, "query_bytes")

    def _check_filters(self, ids: object, path_scope: object, tags: object) -> None:
        """Recall filters within their limits, before any work (``ids`` as a query)."""
        limits = self.config.limits
        many = ids if ids is None or isinstance(ids, str) else " ".join(map(str, ids))  # type: ignore[call-overload]
        rules.check_text(many, "ids", limits, "query_bytes")
        rules.check_text(path_scope, "path_scope", limits, "file_chars")
        if tags:
            rules.check_list(tags, "tags", ";,", limits)

    def graph_path(self, from_key: str, to_key: str) -> list[Entry]:
        """The shortest chain of links between two entries (empty when none)."""
        return self._recaller.graph_path(from_key, to_key)

    def primer(self, limit: int = PRIMER_TOP, budget_tokens: int = DEFAULT_BUDGET_TOKENS) -> Primer:
        """Counts by category, the top entries, the best patterns, warnings, decisions, and the
        files changed in this session; its text fits ``budget_tokens`` (0: no limit)."""
        from toon_memory.rules.budgets import check_budget_tokens, check_primer_limit

        top, budget = check_primer_limit(limit), check_budget_tokens(budget_tokens)
        return self._recaller.primer(top, budget)

    # -- views -----------------------------------------------------------
    def stats(self) -> Stats:
        """Counts by category, origin, status, TTL and quality; hit and duplicate rates."""
        archived = self.store.archived_count()
        with self._recaller.lookup() as state:
            return state.stats(today(), archived)

    def diff(self, since: str = "24h", type: str = "all") -> Diff:
        """Entries created or updated since a date (``24h``, ``7d`` or ``YYYY-MM-DD``)."""
        start = resolve_since(since).isoformat()
        with self._recaller.lookup() as state:
            return diff_entries((e for e in state.each() if e.active), start, type)

    def current(self, days: int = CURRENT_DAYS) -> list[Entry]:
        """Pinned entries, then the entries changed in the last ``days`` days, newest first."""
        recent = sorted(self.recently_changed(days), key=lambda e: e.updated, reverse=True)
        return [*(e for e in self.entries() if e.priority and e not in recent), *recent]

    def hook(self, call: HookCall) -> HookStart | None:
        """An agent hook's event (``memory.hooks``); session-start's context, else None."""
        from toon_memory.memory.hooks import run_hook

        return run_hook(self, call)

    def hook_event(
        self, action: str, session_id: str, agent: str = "", event: str = "", tool: str = "",
        files: str | Sequence[str] = (), summary: str = "",
    ) -> HookStart | None:  # fmt: skip
        """A hook event a client sent a server (``memory_hook``): ``hook`` of its checked
        ``memory.hooks.sent_call``."""
        from toon_memory.memory.hooks import sent_call

        call = sent_call(action, session_id, self.config.limits, agent=agent, event=event,
                         tool=tool, files=files, summary=summary)  # fmt: skip
        return self.hook(call)

    def expired(self) -> list[Entry]:
        return [e for e in self.entries() if is_expired(e.ttl)]

    def recently_changed(self, days: int = 7) -> list[Entry]:
        start = (today() - timedelta(days=days)).isoformat()
        return [e for e in self.entries() if e.updated[:10] >= start]


def _tags(tags: object) -> tuple[str, ...]:
    from toon_memory.model.entry import split_list

    return tuple(split_list(tags, ";,"))
