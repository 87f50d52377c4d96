"""``compress`` without a summary: a fake ``claude``/``llm`` on PATH (never a real one, no network).

Each test sets PATH to a folder of its own fakes ahead of the usual folders,
minus any folder that holds a real ``claude`` or ``llm``.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from tests.conftest import run_cli
from tests.memory.curation.curating_helpers import (
    echo_summary,
    fake_llm,
    path_without_llms,
    seed,
    sleeper,
    store_bytes,
)

from toon_memory import Memory
from toon_memory.errors import InputError
from toon_memory.store.heartbeats import pid_alive

SUMMARY = "Redis pool: 10 connections max for the worker (src/worker/pool.py)."


@pytest.fixture
def bin_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "fake-bin"
    folder.mkdir()
    monkeypatch.setenv("PATH", path_without_llms(folder))
    return folder


@pytest.fixture
def memory(project: Path) -> Memory:
    mem = Memory(project)
    seed(mem)
    return mem


def test_a_local_cli_suggests_a_summary_that_is_not_applied(
    memory: Memory, project: Path, bin_dir: Path, tmp_path: Path
) -> None:
    seen = tmp_path / "prompt.txt"
    fake_llm(bin_dir, "claude", echo_summary(SUMMARY, seen))
    memory_text = memory.get("redis-pool").content
    before = store_bytes(project)
    result = memory.curation.compress("redis-pool")
    assert (result.status, result.summary, result.tool) == ("suggested", SUMMARY, "claude")
    assert store_bytes(project) == before
    assert "Redis connection pool must stay at ten connections" in seen.read_text()
    assert result.to_dict()["apply"] == {"key": "redis-pool", "summary": SUMMARY}
    applied = memory.curation.compress("redis-pool", result.summary)
    assert applied.applied
    assert [e.content for e in memory.history("redis-pool")] == [SUMMARY, memory_text]


def test_llm_is_used_when_there_is_no_claude(memory: Memory, bin_dir: Path) -> None:
    fake_llm(bin_dir, "llm", echo_summary("from llm"))
    result = memory.curation.compress("api-port")
    assert (result.status, result.tool, result.summary) == ("suggested", "llm", "from llm")


def test_without_a_cli_the_prompt_is_returned(
    memory: Memory, project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    before = store_bytes(project)
    result = memory.curation.compress("redis-pool")
    assert result.status == "prompt" and not result.summary
    assert "Key: redis-pool" in result.prompt and "no claude or llm" in result.note
    assert store_bytes(project) == before


def test_a_failing_cli_falls_back_to_the_prompt(memory: Memory, bin_dir: Path) -> None:
    fake_llm(bin_dir, "claude", "sys.stdin.read()\nsys.exit(2)\n")
    result = memory.curation.compress("redis-pool")
    assert (result.status, result.tool) == ("prompt", "claude")
    assert "gave no answer" in result.note and "Key: redis-pool" in result.prompt


def _wait_dead(pid: int) -> bool:
    for _ in range(500):  # SIGKILL was sent; give the kernel a bounded moment
        if not pid_alive(pid):
            return True
        time.sleep(0.01)
    return False


def test_a_slow_cli_is_killed_and_the_prompt_returned(
    memory: Memory, project: Path, bin_dir: Path, tmp_path: Path
) -> None:
    pid_file = tmp_path / "slow.pid"
    fake_llm(bin_dir, "claude", sleeper(pid_file))
    memory.curation.llm_timeout = 0.5
    before = store_bytes(project)
    result = memory.curation.compress("redis-pool")
    assert result.status == "prompt" and "past 0.5s" in result.note
    assert _wait_dead(int(pid_file.read_text()))
    assert store_bytes(project) == before


def test_a_call_timeout_is_checked_and_lasts_for_that_call_only(
    memory: Memory, project: Path, bin_dir: Path, tmp_path: Path
) -> None:
    fake_llm(bin_dir, "claude", sleeper(tmp_path / "slow.pid"))
    for bad in (0, -1, "soon", 7200):
        with pytest.raises(InputError) as caught:
            memory.curation.compress("redis-pool", timeout=bad)
        assert caught.value.field == "timeout"
    result = memory.curation.compress("redis-pool", timeout=0.3)
    assert result.status == "prompt" and "past 0.3s" in result.note
    assert memory.curation.llm_timeout == 60.0  # the part's default is untouched


def _cli_env(bin_dir: Path) -> dict[str, str]:
    return {"PATH": path_without_llms(bin_dir)}


def test_cli_suggest_then_apply(project: Path, bin_dir: Path) -> None:
    seed(Memory(project))
    fake_llm(bin_dir, "claude", echo_summary(SUMMARY))
    env = _cli_env(bin_dir)
    shown = run_cli("compress", "redis-pool", project=project, env=env, check=True)
    assert SUMMARY in shown.stdout and "not applied yet" in shown.stdout
    data = json.loads(
        run_cli("compress", "redis-pool", "--json", project=project, env=env, check=True).stdout
    )
    assert data["status"] == "suggested" and data["apply"]["summary"] == SUMMARY
    done = run_cli("compress", "redis-pool", "--summary", data["apply"]["summary"],
                   project=project, env=env, check=True)  # fmt: skip
    assert "kept as history" in done.stdout
    assert [e.status for e in Memory(project).history("redis-pool")] == ["active", "superseded"]


def test_cli_kills_a_slow_cli_after_its_timeout(
    project: Path, bin_dir: Path, tmp_path: Path
) -> None:
    seed(Memory(project))
    pid_file = tmp_path / "slow.pid"
    fake_llm(bin_dir, "claude", sleeper(pid_file))
    before = store_bytes(project)
    done = run_cli("compress", "redis-pool", "--timeout", "0.5", "--json", project=project,
                   env=_cli_env(bin_dir), check=True)  # fmt: skip
    data = json.loads(done.stdout)
    assert data["status"] == "prompt" and "Content:" in data["prompt"]
    assert _wait_dead(int(pid_file.read_text()))
    assert store_bytes(project) == before
    bad = run_cli("compress", "redis-pool", "--timeout", "0", project=project,
                  env=_cli_env(bin_dir))  # fmt: skip
    assert bad.returncode == 2 and "timeout" in bad.stderr
