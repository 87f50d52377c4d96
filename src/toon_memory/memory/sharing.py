"""Moving a memory: to and from the global store and a GitHub Gist; team sync through git.

Invariant: an import merges with the remember merge rules (``merging``) or,
when asked, replaces (after a backup of what it replaces) in one journaled
write; an export never changes its source; the same export twice changes
nothing the second time (ids travel with entries, new ids are derived from
content). Nothing reaches the network except a Gist call the user asked for,
and the token it uses is never part of a result or an error.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toon_memory.errors import CorruptFileError, InputError, SyncError
from toon_memory.model.checks import check_bool
from toon_memory.model.entry import Entry, Summary
from toon_memory.rules.merging import (
    clean_incoming,
    merge_entries2,
    merge_entries3,
    merge_summaries3,
)
from toon_memory.store import journal
from toon_memory.store.paths import MemoryPaths
from toon_memory.store.store import Store

if TYPE_CHECKING:
    from toon_memory.memory.editor import Editor
    from toon_memory.memory.transfer import Transfer
    from toon_memory.memory.watcher import Watcher
    from toon_memory.project.teamgit import GitSetup
    from toon_memory.store.state import State

GIST_ID_KEY = "gistId"
API_KEY = "githubApi"


@dataclass
class SyncReport:
    """What an export or import did to its target."""

    source: str
    target: str
    mode: str = "merge"
    added: int = 0
    updated: int = 0
    history: int = 0
    removed: int = 0
    unchanged: int = 0
    summaries: int = 0
    skipped: int = 0
    backup: Path | None = None
    messages: list[str] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return bool(self.added or self.updated or self.history or self.removed or self.summaries)

    def to_dict(self) -> dict[str, Any]:
        return {
            "source": self.source, "target": self.target, "mode": self.mode,
            "added": self.added, "updated": self.updated, "history": self.history,
            "removed": self.removed, "unchanged": self.unchanged, "summaries": self.summaries,
            "skipped": self.skipped, "backup": str(self.backup) if self.backup else None, "messages": list(self.messages),
        }  # fmt: skip


@dataclass(frozen=True)
class GistReport:
    """A Gist export: which gist, whether it was created now, what it holds."""

    id: str
    url: str
    created: bool
    public: bool
    entries: int
    summaries: int
    messages: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "url": self.url, "created": self.created, "public": self.public,
                "entries": self.entries, "summaries": self.summaries,
                "messages": list(self.messages)}  # fmt: skip


@dataclass(frozen=True)
class FileMerge:
    """What the merge driver wrote."""

    path: Path
    entries: int
    active: int
    history: int
    notes: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"path": str(self.path), "entries": self.entries, "active": self.active,
                "history": self.history, "notes": list(self.notes)}  # fmt: skip


def _is_convention(entry: Entry) -> bool:
    """What the global memory shares: active entries, but no session checkpoint."""
    checkpoint = "checkpoint" in entry.tags and entry.key.startswith("checkpoint-")
    return entry.active and not checkpoint


def _shared(entry: Entry) -> Entry:
    """A copy for another project: without this project's pin."""
    copy = entry.copy()
    copy.priority = 0
    return copy


def _row_of(entry: Entry) -> dict[str, Any]:
    return entry.to_row()


def _merge_ops(state: State, incoming: list[Entry], summaries: list[Summary],
               report: SyncReport) -> list[journal.Op]:  # fmt: skip
    """The journal ops that bring ``incoming`` into ``state`` with the merge rules."""
    merged = merge_entries2(list(state.entries.values()), incoming)
    made = {id(e) for e in merged.history}
    brought = {(e.id, e.key) for e in incoming}
    ops: list[journal.Op] = []
    for entry in merged.entries:
        old = state.entries.get(entry.id)
        if old is None:
            ops.append(journal.put(entry.to_row()))
            report.history += id(entry) in made
            report.added += id(entry) not in made
        elif _row_of(old) != _row_of(entry):
            ops.append(journal.put(state.persisted_row(entry)))
            report.updated += 1
        elif (entry.id, entry.key) in brought:  # the target's own entries are not counted
            report.unchanged += 1
    kept = {e.id for e in merged.entries}
    ops.extend(journal.delete(entry_id) for entry_id in state.entries if entry_id not in kept)
    report.removed += sum(1 for entry_id in state.entries if entry_id not in kept)
    report.messages.extend(merged.notes)
    mine = list(state.summaries.values())
    for summary in merge_summaries3([], mine, summaries):
        if state.summaries.get(summary.file) != summary:
            ops.append(journal.put_summary(summary.file, summary.summary, summary.date))
            report.summaries += 1
    return ops


def _replace_ops(state: State, incoming: list[Entry], report: SyncReport) -> list[journal.Op]:
    """The journal ops that make ``state``'s entries exactly ``incoming``."""
    ops: list[journal.Op] = []
    wanted = {e.id: e for e in incoming}
    for entry_id in list(state.entries):
        if entry_id not in wanted:
            ops.append(journal.delete(entry_id))
            report.removed += 1
    for entry in incoming:
        old = state.entries.get(entry.id)
        if old is None:
            ops.append(journal.put(entry.to_row()))
            report.added += 1
        elif _row_of(old) != _row_of(entry):
            ops.append(journal.put(state.persisted_row(entry)))
            report.updated += 1
        else:
            report.unchanged += 1
    return ops


def drop_secrets(incoming: list[Entry], report: SyncReport, allow_secrets: bool) -> list[Entry]:
    """``incoming`` without the entries holding a credential (each one reported by number,
    field and kind, never by value), or all of it when ``allow_secrets``."""
    from toon_memory.rules.secrets import ALLOW_FIELD, describe, scan_entry, scan_text

    if check_bool(allow_secrets, ALLOW_FIELD):
        return incoming
    kept: list[Entry] = []
    for number, entry in enumerate(incoming, start=1):
        findings = scan_entry(entry)
        if not findings:
            kept.append(entry)
            continue
        label = f"entry {number}" + ("" if scan_text(entry.key) else f" ({entry.key})")
        report.skipped += 1
        report.messages.append(f"{label}: skipped: {describe(findings)}, "
                               "or import with allow_secrets (CLI --allow-secrets)")  # fmt: skip
    return kept


def merge_into(store: Store, incoming: list[Entry], summaries: list[Summary],
               report: SyncReport, allow_secrets: bool = False) -> SyncReport:  # fmt: skip
    """Merge entries and summaries into ``store`` in one journaled write; entries holding a
    credential are skipped and reported unless ``allow_secrets``."""
    incoming = drop_secrets(incoming, report, allow_secrets)
    return store.mutate(lambda state: (_merge_ops(state, incoming, summaries, report), report))


class Sharing:
    """``Memory.sharing``: the global store, GitHub Gist, git set-up and watch."""

    def __init__(self, store: Store, root: Path, editor: Editor, transfer: Transfer) -> None:
        self.store = store
        self.root = root
        self._editor = editor
        self._transfer = transfer

    # -- git ----------------------------------------------------------------
    def pre_commit(self) -> str:
        """Before a commit: fold the journal into data.toon and ``git add`` data.toon and
        archive.toon. Commits nothing."""
        from toon_memory.project.teamgit import git_top, stage

        paths = self.store.paths
        if not paths.folder.is_dir():
            return "toon-memory: no memory folder here; nothing to stage"
        top = git_top(self.root)  # not a git work tree: refused before anything is written
        if not self.store.compact():
            self.store.compact()  # another process compacted meanwhile: once more, on its result
        staged = stage(top, [paths.data, paths.archive])
        names = ", ".join(p.name for p in staged) or "nothing (no memory written yet)"
        return f"toon-memory: journal folded into data.toon; staged {names}"

    # -- the global store -------------------------------------------------
    def _global_store(self) -> Store:
        from toon_memory.search import INDEX_VERSION, Engine

        paths = MemoryPaths.for_global()
        if paths.folder.resolve() == self.store.paths.folder.resolve():
            raise InputError("project", "this is the global memory itself; run it in a project")
        return Store(paths, make_derived=Engine.over, derived_version=str(INDEX_VERSION))

    def export_global(self, allow_secrets: bool = False) -> SyncReport:
        """Merge this project's memory into the global one (~/.toon-memory/memory); entries
        holding a credential stay behind (reported) unless ``allow_secrets``."""
        target = self._global_store()
        if self.store.encrypted() and not target.encrypted():
            refuse_clear_copy("an export to the global memory (which is not encrypted)")
        entries = [_shared(e) for e in self.store.state().entries.values() if _is_convention(e)]
        report = SyncReport(str(self.store.paths.folder), str(target.paths.folder))
        return merge_into(target, entries, [], report, allow_secrets)

    def import_global(self, merge: bool = True, allow_secrets: bool = False) -> SyncReport:
        """Bring the global memory's entries in: merged, or (``merge=False``) replacing
        this project's entries after a backup of them. File summaries stay the project's.
        Entries holding a credential are skipped (reported) unless ``allow_secrets``."""
        check_bool(merge, "merge")
        source = self._global_store()
        entries = [e.copy() for e in source.state().entries.values()]
        report = SyncReport(str(source.paths.folder), str(self.store.paths.folder),
                            mode="merge" if merge else "replace")  # fmt: skip
        entries = drop_secrets(entries, report, allow_secrets)
        if merge:
            return merge_into(self.store, entries, [], report, allow_secrets=True)
        if not entries:
            raise InputError("merge", f"the global memory ({source.paths.folder}) is empty; "
                             "refusing to replace this project's entries with nothing")  # fmt: skip
        from toon_memory.store.backups import create_backup

        report.backup = create_backup(self.store)
        return self.store.mutate(lambda state: (_replace_ops(state, entries, report), report))

    # -- GitHub Gist ------------------------------------------------------
    def _api_url(self) -> str:
        """``TOON_MEMORY_GITHUB_API``, else ``githubApi`` of the user's global config.json.

        A project's config.json is not asked: it may be committed by anyone, and the
        URL decides where the token goes.
        """
        import os

        from toon_memory.store.gist import API_ENV, DEFAULT_API, check_base_url
        from toon_memory.system.jsonfile import read_json_object

        if os.environ.get(API_ENV, "").strip():
            return check_base_url(os.environ[API_ENV], API_ENV)
        config = MemoryPaths.for_global().config
        value = read_json_object(config).get(API_KEY)
        return check_base_url(str(value), f"{config}: {API_KEY}") if value else DEFAULT_API

    def export_gist(self, public: bool = False) -> GistReport:
        """Upload this memory to a Gist: the one remembered in config.json, else a new one.
        An encrypted memory is refused (the Gist would hold its entries in clear)."""
        if self.store.encrypted():
            refuse_clear_copy("a Gist export")
        from toon_memory.store.config import update_config
        from toon_memory.store.documents import document_text
        from toon_memory.store.gist import TOKEN_HELP, GistClient, find_token
        from toon_memory.system.jsonfile import read_json_object

        check_bool(public, "public")
        token = find_token()
        if not token:
            raise SyncError(f"no GitHub token: {TOKEN_HELP}")
        client = GistClient(self._api_url(), token)
        state = self.store.state()
        entries, summaries = list(state.entries.values()), list(state.summaries.values())
        text, description = document_text(entries, summaries), f"toon-memory: {self.root.name}"
        known = str(read_json_object(self.store.paths.config).get(GIST_ID_KEY) or "")
        notes: tuple[str, ...] = ()
        if known:
            config = self.store.paths.config
            hint = f'remove "{GIST_ID_KEY}" from {config} to create a new gist'
            info = client.update(known, text, description, missing=hint)
            if public:
                notes = ("a gist's visibility is set when it is created; this one kept its own",)
        else:
            info = client.create(text, description, public)
            update_config(self.store.paths.config, {GIST_ID_KEY: info.id})
        return GistReport(info.id, info.url, not known, public and not known, len(entries),
                          len(summaries), notes)  # fmt: skip

    def import_gist(self, gist_id: str, allow_secrets: bool = False) -> SyncReport:
        """Merge the memory a Gist holds into this one (the remember merge rules); entries
        holding a credential are skipped (reported) unless ``allow_secrets``."""
        from toon_memory.store.codec import decode_document
        from toon_memory.store.gist import GistClient, check_gist_id, find_token

        gid = check_gist_id(gist_id)
        text = GistClient(self._api_url(), find_token()).fetch(gid)
        try:
            doc = decode_document(text, Path(f"gist {gid}"))
        except CorruptFileError as exc:
            where = f" line {exc.line}" if exc.line else ""
            raise SyncError(
                f"gist {gid}{where}: not a toon-memory document; nothing imported"
            ) from None
        entries, notes = clean_incoming(doc.entries)
        report = SyncReport(f"gist {gid}", str(self.store.paths.folder), messages=notes)
        return merge_into(self.store, entries, doc.summaries, report, allow_secrets)

    # -- git and watch ----------------------------------------------------
    def git_setup(self) -> GitSetup:
        """Register the merge driver and the pre-commit hook in this project's git repository."""
        from toon_memory.project.teamgit import setup_team_sync, toon_memory_command

        self.store.ensure_folder()
        return setup_team_sync(self.root, self.store.paths.folder, toon_memory_command())

    def watcher(
        self, *, interval_minutes: float = 5.0, compress: bool = False, max_backups: int = 10,
        log: str | Path | None = None,
    ) -> Watcher:  # fmt: skip
        """A ``Watcher`` of this memory; ``log=""`` logs to watch.log in the memory folder."""
        from toon_memory.memory.watcher import Watcher

        path = (
            None
            if log is None
            else Path(log)
            if str(log)
            else self.store.paths.folder / "watch.log"
        )
        return Watcher(self.store, interval_minutes=interval_minutes, compress=compress,
                       max_backups=max_backups, log=path)  # fmt: skip


def merge_files(base: Path, ours: Path, theirs: Path) -> FileMerge:
    """The git merge driver: merge three versions of a memory file into ``ours``.

    Raises ``CorruptFileError`` (and writes nothing) when a version does not decode, and
    ``InputError`` when ``ours`` lies in a memory's own folder.
    """
    from toon_memory.errors import InputError
    from toon_memory.store.documents import read_document, write_document
    from toon_memory.store.paths import inside_a_memory

    if inside_a_memory(ours):  # git passes temporary copies; never a memory's own file
        raise InputError("ours", f"{ours} is a memory's own file; the merged result would "
                         "replace it: git gives the driver temporary copies (%A)")  # fmt: skip
    old, mine, other = read_document(base), read_document(ours), read_document(theirs)
    merged = merge_entries3(old.entries, mine.entries, other.entries)
    summaries = merge_summaries3(old.summaries, mine.summaries, other.summaries)
    write_document(ours, merged.entries, summaries)
    active = sum(1 for e in merged.entries if e.active)
    return FileMerge(ours, len(merged.entries), active, len(merged.history), tuple(merged.notes))


def refuse_clear_copy(what: str) -> None:
    """An encrypted memory is never copied somewhere in clear."""
    from toon_memory.errors import EncryptionError

    raise EncryptionError(
        f"this memory is encrypted; {what} would hold its entries in clear; "
        "run `toon-memory decrypt` first (or encrypt the target too)"
    )
