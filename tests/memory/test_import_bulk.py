"""A big import is written as one new data.toon (``store.bulk``): the same entries and report
as the journaled write, durable, read by the strict decoder, found by recall at once (in the
process and in a fresh one); a SIGKILL at any moment leaves the memory before or after it."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import toon_format
from tests.conftest import no_entry_cap, run_cli

from toon_memory import Memory
from toon_memory.store import bulk

ROWS = 1500


def _rows(n: int = ROWS) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = [
        {"id": f"{i:08x}", "key": f"k-{i}", "category": ("bug", "Recipe")[i % 2],
         "content": f"entry {i} about retry storms and pool timeouts", "tags": ["net"],
         "created": "2026-07-01T00:00:00Z"} for i in range(n)]  # fmt: skip
    rows[7]["key"] = "k-6"  # repeated: the earlier one is kept as history
    rows[9] = {"key": "", "content": "no key"}  # refused
    rows[11]["content"] = "token ghp_" + "a" * 36  # refused: a credential
    rows[13]["key"] = "kept-before"  # already in memory
    rows[15]["id"] = "not-an-id"  # a fresh id
    return rows


def _imported(project: Path, whole: bool, monkeypatch: pytest.MonkeyPatch) -> Memory:
    no_entry_cap(project)
    memory = Memory(project)
    memory.remember("decision", "kept-before", "stored before the import")
    monkeypatch.setattr(bulk, "WHOLE_MIN_PUTS", 1000 if whole else 10**9)
    report = memory.import_rows(_rows())
    assert (report.added, report.skipped) == (ROWS - 3, 3), report.messages
    return memory


def _view(memory: Memory) -> list[tuple[Any, ...]]:
    """Every entry; ids and times drawn at run time (a fresh id, the remembered one) left out."""
    drawn = ("k-15", "kept-before")
    return sorted((e.key, e.status, e.content, e.category, e.tags, e.meta,
                   ("", "") if e.key in drawn else (e.id, e.created))
                  for e in memory.entries(include_inactive=True))  # fmt: skip


def test_a_big_import_writes_what_the_journal_would(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    whole = _imported(tmp_path / "a", True, monkeypatch)
    journaled = _imported(tmp_path / "b", False, monkeypatch)
    assert _view(whole) == _view(journaled)
    assert not whole.paths.journal.exists()
    data = toon_format.loads(whole.paths.data.read_text(), strict=True)
    assert len(data["entries"]) == ROWS - 3 + 1


def test_a_one_shot_import_builds_no_engine_and_writes_what_a_lasting_one_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A CLI import (one-shot) reads the memory it adds to bare: no search engine built,
    no pickle of every entry written, the same entries as a long-lived process's import."""
    lasting = _imported(tmp_path / "a", True, monkeypatch)
    project = tmp_path / "b"
    no_entry_cap(project)
    Memory(project).remember("decision", "kept-before", "stored before the import")
    Memory(project).paths.cache.unlink(missing_ok=True)
    one_shot = Memory(project, one_shot=True)
    report = one_shot.import_rows(_rows())
    assert (report.added, report.skipped) == (ROWS - 3, 3), report.messages
    assert not one_shot.paths.cache.exists() and one_shot.store.loaded() is None
    assert _view(Memory(project)) == _view(lasting)


def test_a_big_import_is_recalled_at_once(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    memory = _imported(project, True, monkeypatch)
    assert "k-1234" in [hit.entry.key for hit in memory.recall("entry 1234").hits]
    fresh = run_cli("recall", "entry 1234", project=project, check=True)
    assert "k-1234" in fresh.stdout


KILLED = """
import sys
from toon_memory import Memory
Memory(sys.argv[1]).import_(sys.argv[2])
print("done", flush=True)
"""


def _keys(project: Path) -> set[str]:
    return {e.key for e in Memory(project).entries(include_inactive=True)}


def test_a_killed_import_leaves_the_memory_before_or_after(project: Path, tmp_path: Path) -> None:
    rows = [{"key": f"bulk-{i}", "content": f"imported entry {i} | with pipe: \"q\"\n"}
            for i in range(4000)]  # fmt: skip
    export = tmp_path / "export.json"
    export.write_text(json.dumps(rows))
    no_entry_cap(project)
    base = Memory(project)
    for i in range(30):
        base.remember("knowledge", f"base-{i}", f"stored before {i}")
    before = _keys(project)
    after = before | {row["key"] for row in rows}
    saved = tmp_path / "saved"
    shutil.copytree(project / ".toon-memory", saved)
    env = {**os.environ, "TOON_MEMORY_PROJECT": str(project)}
    seen: set[str] = set()
    delay = 0.02  # the child has not even started: "before" is always among the outcomes
    while "after" not in seen or delay < 3:
        shutil.rmtree(project / ".toon-memory")
        shutil.copytree(saved, project / ".toon-memory")
        proc = subprocess.Popen([sys.executable, "-c", KILLED, str(project), str(export)],
                                env=env, stdout=subprocess.DEVNULL)  # fmt: skip
        time.sleep(delay)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=60)
        data = project / ".toon-memory/memory/data.toon"
        toon_format.loads(data.read_text(), strict=True)
        keys = _keys(project)
        assert keys in (before, after), f"killed after {delay:.1f}s: {len(keys)} keys"
        seen.add("after" if keys == after else "before")
        delay += 0.2
        assert delay < 60, "the import never finished"
    assert seen == {"before", "after"}
