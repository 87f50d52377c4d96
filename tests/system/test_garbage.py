"""A long-lived server's collector: survivors frozen after each call, cycles freed when idle
or every ``EVERY`` calls, and no thread left once it has collected."""

from __future__ import annotations

import gc
import threading
import time
import weakref
from collections.abc import Iterator

import pytest

from toon_memory.system import garbage
from toon_memory.system.garbage import Collector


class _Cycle:
    def __init__(self) -> None:
        self.me = self


@pytest.fixture(autouse=True)
def _unfrozen() -> Iterator[None]:
    gc.unfreeze()
    yield
    gc.unfreeze()
    gc.collect()


def _frozen_cycle(collector: Collector) -> weakref.ref[_Cycle]:
    """A cycle alive through one call, dropped after it: garbage that only a full pass frees."""
    with collector.call():
        kept = _Cycle()
    ref = weakref.ref(kept)
    del kept
    gc.collect()
    return ref


def _idle_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == "idle-gc"]


def test_a_call_freezes_what_it_left_alive() -> None:
    collector = Collector(idle=3600)  # no idle pass in this test: nothing races the checks
    ref = _frozen_cycle(collector)
    assert gc.get_freeze_count() > 0
    assert ref() is not None, "an ordinary collection looked at a frozen object"
    collector.collect()
    assert ref() is None, "a full pass did not free the frozen cycle"


def test_idle_time_frees_frozen_cycles_and_its_thread_ends() -> None:
    before = set(_idle_threads())  # (a collector of another test may still be waiting)
    collector = Collector(idle=0.05)
    ref = _frozen_cycle(collector)
    deadline = time.monotonic() + 10
    while ref() is not None and time.monotonic() < deadline:
        time.sleep(0.02)
    assert ref() is None, "the idle pass did not free the frozen cycle"
    deadline = time.monotonic() + 10
    while set(_idle_threads()) - before and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not set(_idle_threads()) - before, "the idle thread outlived its pass"


def test_a_server_never_idle_collects_every_EVERY_calls(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(garbage, "EVERY", 5)
    collector = Collector(idle=3600)
    ref = _frozen_cycle(collector)
    for _ in range(3):
        with collector.call():
            pass
    assert ref() is not None, "collected before the EVERY-th call"
    with collector.call():
        pass
    assert ref() is None, "not collected at the EVERY-th call"


def test_only_the_last_of_overlapping_calls_freezes() -> None:
    collector = Collector(idle=3600)
    with collector.call():
        with collector.call():
            pass
        assert gc.get_freeze_count() == 0
    assert gc.get_freeze_count() > 0


def test_a_failing_call_still_settles() -> None:
    collector = Collector(idle=3600)
    with pytest.raises(RuntimeError), collector.call():
        raise RuntimeError("boom")
    assert gc.get_freeze_count() > 0


def test_idle_work_runs_once_idle_before_the_full_pass_and_a_failure_is_let_go() -> None:
    done: list[str] = []

    def work() -> None:
        done.append("work")
        raise OSError("a busy disk")  # upkeep that fails waits for the next idle time

    collector = Collector(idle=0.05, idle_work=work)
    ref = _frozen_cycle(collector)
    deadline = time.monotonic() + 10
    while ref() is not None and time.monotonic() < deadline:
        time.sleep(0.02)
    assert done == ["work"] and ref() is None  # the work, then the pass all the same
    busy = Collector(idle=3600, idle_work=work)
    with busy.call():
        pass
    assert done == ["work"]  # never idle long enough: not run
