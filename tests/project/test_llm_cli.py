"""The compress helper: its prompt, and a fake ``claude``/``llm`` CLI on PATH (no network)."""

from __future__ import annotations

import os
import stat
import time
from pathlib import Path

import pytest
from tests.search.builders import entry

from toon_memory.errors import InputError
from toon_memory.project.llm_cli import find_llm_cli, run_llm_cli
from toon_memory.rules.curation import check_summary, compress_prompt
from toon_memory.store.heartbeats import pid_alive


def fake_cli(bin_dir: Path, name: str, body: str) -> Path:
    bin_dir.mkdir(parents=True, exist_ok=True)
    path = bin_dir / name
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return path


@pytest.fixture
def bin_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "bin"
    folder.mkdir()
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}/usr/bin{os.pathsep}/bin")
    return folder


def test_the_prompt_holds_the_whole_entry() -> None:
    e = entry(
        "redis-pool",
        "Redis pool size stays at ten; more exhausts the server.",
        category="decision",
        tags=["redis", "perf"],
        file="src/db.py:10",
    )
    prompt = compress_prompt(e, max_words=30)
    assert "at most 30 words" in prompt
    for part in (
        "Category: decision",
        "Key: redis-pool",
        "Tags: redis, perf",
        "File: src/db.py:10",
        e.content,
    ):
        assert part in prompt


def test_summaries_are_checked() -> None:
    assert check_summary("  short  ") == "short"
    for bad in ("", "   ", None, "x" * 5000):
        with pytest.raises(InputError) as caught:
            check_summary(bad)
        assert caught.value.field == "summary"


def test_claude_reads_the_prompt_from_stdin(bin_dir: Path, tmp_path: Path) -> None:
    seen = tmp_path / "seen.txt"
    args = tmp_path / "args.txt"
    fake_cli(bin_dir, "claude", f'echo "$@" > {args}\ncat > {seen}\necho "  short summary  "\n')
    fake_cli(bin_dir, "llm", "echo from-llm\n")
    assert find_llm_cli() == [str(bin_dir / "claude"), "-p"]
    prompt = compress_prompt(entry("k", "some long content " * 20))
    assert run_llm_cli(prompt) == "short summary"
    assert seen.read_text() == prompt
    assert args.read_text().strip() == "-p"


def test_llm_is_the_fallback(bin_dir: Path) -> None:
    fake_cli(bin_dir, "llm", "cat > /dev/null\necho from-llm\n")
    assert find_llm_cli() == [str(bin_dir / "llm")]
    assert run_llm_cli("prompt") == "from-llm"


def test_no_cli_no_summary(bin_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(bin_dir))  # only the empty folder
    assert find_llm_cli() is None
    assert run_llm_cli("prompt") is None
    assert run_llm_cli("prompt", command=[str(bin_dir / "missing")]) is None


@pytest.mark.parametrize(
    "body", ["cat > /dev/null\necho oops >&2\nexit 3\n", "cat > /dev/null\n", "exit 0\n"]
)
def test_a_failing_or_silent_cli_gives_none(bin_dir: Path, body: str) -> None:
    fake_cli(bin_dir, "claude", body)
    assert run_llm_cli("prompt") is None


def test_a_slow_cli_is_killed_with_its_children(bin_dir: Path, tmp_path: Path) -> None:
    child_pid = tmp_path / "child.pid"
    fake_cli(bin_dir, "claude", f"sleep 300 &\necho $! > {child_pid}\nwait\n")
    assert run_llm_cli("prompt", timeout=0.5) is None
    pid = int(child_pid.read_text())
    for _ in range(500):  # SIGKILL is sent; wait (bounded) until the kernel has acted on it
        if not pid_alive(pid) or _zombie(pid):
            break
        time.sleep(0.01)
    assert not pid_alive(pid) or _zombie(pid)


def _zombie(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] == "Z"
    except OSError:
        return False


def test_output_is_bounded(bin_dir: Path) -> None:
    fake_cli(bin_dir, "claude", "cat > /dev/null\nhead -c 20000 /dev/zero | tr '\\0' 'a'\n")
    answer = run_llm_cli("prompt")
    assert answer is not None and len(answer) == 4000
