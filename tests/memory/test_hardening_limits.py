"""Bounded work per call (issue 14, items 4, 6, 8).

Every text pass of ``remember`` is linear, every input has a size limit
checked before any work (named field and setting, defaults overridable in
config.json), imports are bounded in size and depth, and values that used to
overflow (huge TTLs, Infinity, undecodable bytes) are input errors naming the
field. The "does not hang" checks run under ``hang_guard``: a generous alarm
that separates linear (milliseconds) from quadratic (hours), not a timing.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest
from tests.clirunner import invoke
from tests.conftest import run_cli

from toon_memory import Memory
from toon_memory.errors import ImportFormatError, InputError
from toon_memory.model.entry import Entry
from toon_memory.rules.scoring import quality_score, specific_count
from toon_memory.store.paths import MemoryPaths


@contextlib.contextmanager
def hang_guard(seconds: int = 60) -> Iterator[None]:
    """Fail instead of hanging when the body runs for more than ``seconds``."""

    def stop(*_: object) -> None:
        raise TimeoutError(f"still running after {seconds} s: not linear")

    old = signal.signal(signal.SIGALRM, stop)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def test_recall_of_a_pathological_query_finishes(project: Path) -> None:
    """The named-file scan of a query (``search.paths.named_paths``) stays linear."""
    memory = Memory(project)
    memory.remember("knowledge", "dhl", "DHL returns local times.", file="src/carriers/dhl.py")
    with hang_guard():
        for query in ("a." * 4_000, "x" * 8_000, "x" * 8_000 + ".py src/carriers/dhl.py"):
            memory.recall(query)
    assert memory.recall("before editing src/carriers/dhl.py").entries[0].key == "dhl"


def _config(project: Path, settings: dict[str, object]) -> None:
    path = MemoryPaths.for_project(project).config
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(settings))


# -- item 4: linear text passes ---------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["a" * 2_000_000, "`" + "a" * 2_000_000, "aA" * 1_000_000, "a_" * 1_000_000, "a." * 1_000_000],
    ids=["one-word", "open-backtick", "humps", "snake", "dots"],
)
def test_specificity_is_linear_on_pathological_text(text: str) -> None:
    entry = Entry(id="00000000", category="knowledge", key="k", content=text)
    with hang_guard():
        assert 0.0 <= quality_score(entry, date(2026, 7, 15)) <= 1.0


def test_specificity_counts_what_names_something() -> None:
    assert specific_count("plain words and nothing else here") == 0
    for text in ("see src/app.py", "call getUser()", "the userId field", "user_id", "`x y`", "42"):
        assert specific_count(text) == 1, text
    assert specific_count("src/app.py and getUser() and user_id") == 2  # capped


def test_remember_of_one_long_word_is_fast_enough_to_finish(project: Path) -> None:
    memory = Memory(project)
    contents = {
        "long-word": "x" * 60_000, "long-hump": "aB" * 30_000, "caps": "A" * 60_000 + "9a",
        "wiki": "[[a" * 20_000, "backtick": "`" + "a" * 60_000, "dots": "a." * 30_000,
    }  # fmt: skip
    with hang_guard():
        for key, content in contents.items():
            memory.remember("knowledge", key, content)
    assert {e.key for e in memory.entries()} == set(contents)


# -- item 4: limits, checked first ----------------------------------------------------------


def test_content_over_the_limit_is_refused_before_any_work(project: Path) -> None:
    memory = Memory(project)
    with hang_guard(), pytest.raises(InputError) as caught:
        memory.remember("knowledge", "bad key with spaces", "x" * 50_000_000)
    assert caught.value.field == "content"  # the size is checked before the key
    assert "65536" in str(caught.value) and "limits.contentBytes" in str(caught.value)
    with pytest.raises(InputError, match="content: is 65537 bytes"):
        memory.remember("knowledge", "k", "é" * 32_768 + "x")  # counted in UTF-8 bytes
    memory.remember("knowledge", "k", "x" * 65_536)
    assert [e.key for e in memory.entries()] == ["k"]


@pytest.mark.parametrize(
    ("kwargs", "field", "setting"),
    [
        ({"key": "k" * 201}, "key", "keyChars"),
        ({"tags": ";".join(f"t{n}" for n in range(51))}, "tags", "tags"),
        ({"tags": "t" * 101}, "tags", "tagChars"),
        ({"links": " ".join(f"l{n}" for n in range(51))}, "links", "tags"),
        ({"file": "f" * 1025}, "file", "fileChars"),
        ({"path_scope": "p" * 1025}, "path_scope", "fileChars"),
    ],
)
def test_remember_limits_name_the_field_and_setting(
    project: Path, kwargs: dict[str, str], field: str, setting: str
) -> None:
    args: dict[str, str] = {"key": "k", **kwargs}
    key = args.pop("key")
    with pytest.raises(InputError) as caught:
        Memory(project).remember("knowledge", key, "content", **args)  # type: ignore[arg-type]
    assert caught.value.field == field and setting in str(caught.value)
    assert not MemoryPaths.for_project(project).data.exists()


def test_query_limits_on_every_recall_like_call(project: Path) -> None:
    memory = Memory(project)
    memory.remember("knowledge", "k", "content")
    long = "word " * 2000  # 10 000 bytes
    calls = [
        ("query", lambda: memory.recall(long)),
        ("query", lambda: memory.search(long)),
        ("context", lambda: memory.suggest(long)),
        ("intent", lambda: memory.smart_recall(long)),
    ]
    for field, call in calls:
        with pytest.raises(InputError) as caught:
            call()
        assert caught.value.field == field and "limits.queryBytes" in str(caught.value)


def test_summary_text_and_checkpoint_note_are_limited_before_writing(project: Path) -> None:
    memory = Memory(project)
    with pytest.raises(InputError, match="text: is"):
        memory.summary("src/a.py", "x" * 70_000)
    with pytest.raises(InputError, match="note: is"):
        memory.checkpoint("n" * 70_000)
    assert memory.backups() == []  # refused before the backup was made


def test_limits_come_from_config_json(project: Path) -> None:
    _config(project, {"limits": {"contentBytes": 100, "keyChars": 5, "queryBytes": 10}})
    memory = Memory(project)
    memory.remember("knowledge", "short", "x" * 100)
    with pytest.raises(InputError, match=r"content: is 101 bytes, over the limit of 100"):
        memory.remember("knowledge", "short", "x" * 101)
    with pytest.raises(InputError, match="key"):
        memory.remember("knowledge", "longer", "x")
    with pytest.raises(InputError, match="query"):
        memory.recall("eleven byte")
    _config(project, {"limits": {"contentBytes": "lots"}})
    done = invoke("remember", "-c", "bug", "-k", "k", "-m", "m", project=project)
    assert done.returncode == 1 and "limits.contentBytes" in done.stderr
    assert "restore" not in done.stderr  # a settings file is fixed, not restored


def test_import_rows_get_the_same_limits(project: Path) -> None:
    rows = [
        {"key": "fine", "content": "ok"},
        {"key": "huge", "content": "x" * 70_000},
        {"key": "k" * 300, "content": "long key"},
        {"key": "many-tags", "content": "c", "tags": [f"t{n}" for n in range(60)]},
    ]
    report = Memory(project).import_rows(rows)
    assert report.added == 2 and report.skipped == 2
    text = "\n".join(report.messages)
    assert "entry 2 (huge): skipped: content: is 70000 bytes" in text
    assert "entry 3" in text and "keyChars" in text
    assert "10 of 60 tags dropped" in text
    assert len(Memory(project).get("many-tags").tags) == 50


# -- item 6: import size and depth ------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["[" * 100_000 + "]" * 100_000,
     json.dumps([{"key": "k", "content": "c", "meta": {"a": {"b": {}}}}]).replace(
         "{}", "[" * 5000 + "]" * 5000),
     json.dumps([{"key": "k", "content": "c", "meta": {"deep": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}}])],
    ids=["100k-nested-arrays", "5k-deep-meta", "35-deep-meta"],
)  # fmt: skip
def test_deeply_nested_import_is_refused(project: Path, tmp_path: Path, text: str) -> None:
    path = tmp_path / "deep.json"
    path.write_text(text)
    with pytest.raises(ImportFormatError, match="nested deeper than 32 levels") as caught:
        Memory(project).import_(path)
    assert caught.value.field == "file" and str(path) in str(caught.value)
    done = invoke("import", str(path), project=project)
    assert done.returncode == 2 and "limits.importDepth" in done.stderr and done.exception is None


def test_an_import_holding_a_number_too_long_to_read_is_refused(
    project: Path, tmp_path: Path
) -> None:
    """A 5,000-digit number (over Python's 4,300-digit reading limit) is a clear refusal
    naming the file, never a traceback; nothing comes in."""
    path = tmp_path / "long.json"
    path.write_text('[{"key": "k", "content": "c", "quality": ' + "9" * 5000 + "}]")
    with pytest.raises(ImportFormatError, match="invalid JSON: Exceeds the limit") as caught:
        Memory(project).import_(path)
    assert str(path) in str(caught.value)
    done = invoke("import", str(path), project=project)
    assert done.returncode == 2 and "invalid JSON" in done.stderr and done.exception is None
    assert not MemoryPaths.for_project(project).data.exists()


def test_import_over_the_size_limit_is_refused(project: Path, tmp_path: Path) -> None:
    _config(project, {"limits": {"importBytes": 1000}})
    big = tmp_path / "big.json"
    big.write_text(json.dumps([{"key": f"k{n}", "content": "c" * 50} for n in range(40)]))
    for path in (big, Path("/dev/zero")):
        done = invoke("import", str(path), project=project)
        assert done.returncode == 2, done.stderr
        assert f"{path} is over the import limit of 1000 bytes" in done.stderr
    assert not MemoryPaths.for_project(project).data.exists()


# -- item 8: overflow and undecodable text --------------------------------------------------


@pytest.mark.parametrize(
    ("args", "field"),
    [
        (("remember", "-c", "bug", "-k", "k", "-m", "m", "--ttl", "9999999d"), "ttl"),
        (("remember", "-c", "bug", "-k", "k", "-m", "m", "--ttl", "99999999999999999999d"), "ttl"),
        (("diff", "--since", "99999999999d"), "since"),
        (("diff", "--since", "99999999999999999999999h"), "since"),
    ],
)
def test_huge_spans_are_input_errors(project: Path, args: tuple[str, ...], field: str) -> None:
    done = invoke(*args, project=project)
    assert done.exception is None and done.returncode == 2
    assert done.stderr.startswith(f"error: {field}: ")


def test_infinity_in_an_import_is_reported_not_a_traceback(project: Path, tmp_path: Path) -> None:
    path = tmp_path / "inf.json"
    path.write_text('[{"key": "a", "content": "x", "priority": Infinity},'
                    ' {"key": "b", "content": "y", "accessed": Infinity},'
                    ' {"key": "c", "content": "z", "confidence": NaN}]')  # fmt: skip
    done = invoke("import", str(path), "--json", project=project)
    assert done.exception is None and done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    text = "\n".join(report["messages"])
    assert report["added"] == 0 and report["skipped"] == 3
    assert "priority: expected a whole number, got inf" in text
    assert "accessed: expected a whole number" in text and "confidence: expected a finite" in text


UNDECODABLE = b"caf\xe9"  # Latin-1 bytes on a UTF-8 command line: a lone surrogate in argv


@pytest.mark.parametrize(
    ("args", "field"),
    [
        ((b"remember", b"-c", b"bug", b"-k", UNDECODABLE, b"-m", b"m"), "key"),
        ((b"remember", b"-c", b"bug", b"-k", b"k", b"-m", UNDECODABLE), "content"),
        ((b"recall", UNDECODABLE), "query"),
        ((b"state", b"set", b"current_task", UNDECODABLE), "value"),  # the declared name
    ],
)
def test_undecodable_command_line_text_is_exit_2_naming_the_field(
    project: Path, args: tuple[bytes, ...], field: str
) -> None:
    env = {"TOON_MEMORY_PROJECT": str(project), "LC_ALL": "C.UTF-8", "PYTHONUTF8": "1"}
    done = subprocess.run([sys.executable.encode(), b"-m", b"toon_memory", *args],
                          capture_output=True, env={**os.environ, **env}, timeout=60, check=False)  # fmt: skip
    stderr = done.stderr.decode("utf-8", "replace")
    assert done.returncode == 2 and "Traceback" not in stderr, stderr
    assert f"{field}: " in stderr and "not valid Unicode" in stderr


def test_lone_surrogates_through_the_api_name_the_field(project: Path) -> None:
    memory = Memory(project)
    for kwargs, field in (({"key": "k\ud800"}, "key"), ({"content": "c\udcff"}, "content"),
                          ({"tags": "t\ud800"}, "tags"), ({"file": "f\ud800"}, "file")):  # fmt: skip
        args = {"key": "k", "content": "c", **kwargs}
        with pytest.raises(InputError) as caught:
            memory.remember("knowledge", args.pop("key"), args.pop("content"), **args)
        assert caught.value.field == field
    with pytest.raises(InputError, match="query"):
        memory.recall("q\ud800")
    with pytest.raises(InputError, match="meta"):
        memory.remember("knowledge", "k", "c", meta={"x": "\ud800"})
    with pytest.raises(InputError, match="value"):
        memory.session_state("set", "current_task", "task \ud800")
    assert not (project / "SESSION-STATE.json").exists()
    assert not MemoryPaths.for_project(project).data.exists()


def test_cli_subprocess_on_huge_ttl_has_no_traceback(project: Path) -> None:
    done = run_cli("remember", "-c", "bug", "-k", "k", "-m", "m", "--ttl", "9999999d",
                   project=project)  # fmt: skip
    assert done.returncode == 2 and done.stderr.startswith("error: ttl: ")
    assert "Traceback" not in done.stderr


def test_remember_of_a_long_german_word_finishes(project: Path) -> None:
    """German compound splitting (``search.compounds``) is bounded per word."""
    memory = Memory(project)
    with hang_guard():
        memory.remember("knowledge", "de-long", "Die Datenbank ist " + "speicher" * 7_000 + ".")
    assert memory.recall("Datenbank").entries[0].key == "de-long"
