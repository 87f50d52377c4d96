"""``memory.heap``: after ``give_back_big_blocks`` a big block freed and made again is mapped on
its own (given back when freed), not carved out of the heap, where it would leave a hole."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

PROBE = """
import ctypes, sys
from toon_memory.memory.heap import give_back_big_blocks
if sys.argv[1] == "fixed":
    give_back_big_blocks()
    give_back_big_blocks()  # once is enough; twice is harmless
first = bytearray(4 << 20)
del first  # glibc, left to itself, now raises its threshold past 4 MiB
again = bytearray(4 << 20)
at = ctypes.addressof((ctypes.c_char * 1).from_buffer(again))
for line in open("/proc/self/maps"):
    if line.rstrip().endswith("[heap]"):
        low, high = (int(part, 16) for part in line.split()[0].split("-"))
        print("heap" if low <= at < high else "own")
        break
else:
    print("own")
"""


def where_a_big_block_lives(mode: str) -> str:
    done = subprocess.run([sys.executable, "-c", PROBE, mode], capture_output=True, text=True,
                          timeout=60, check=True)  # fmt: skip
    return done.stdout.strip()


@pytest.mark.skipif(
    not Path("/proc/self/maps").exists() or sys.platform != "linux", reason="reads /proc maps"
)
def test_a_big_block_made_again_is_mapped_on_its_own() -> None:
    if where_a_big_block_lives("default") != "heap":
        pytest.skip("this C library does not move big blocks into the heap (not glibc)")
    assert where_a_big_block_lives("fixed") == "own"
