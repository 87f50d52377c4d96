"""Big blocks given back to the system as soon as they are freed, for passes over a whole memory.

Invariant: ``give_back_big_blocks`` only fixes glibc's mmap threshold at its own default
(128 KiB), once per process: every block that large is mapped on its own and unmapped when
freed. Left to itself glibc raises the threshold after each big block is freed, and a pass over
100,000 entries (growing lists, arrays and dicts freed and made again) then leaves ~10 MB of
holes in the heap that the process's peak RSS counts. Nothing changes but where big blocks
live; where there is no glibc ``mallopt`` (macOS, Windows) it does nothing.
"""

from __future__ import annotations

from functools import cache

#: glibc's ``M_MMAP_THRESHOLD`` parameter, and its default value in bytes.
_M_MMAP_THRESHOLD = -3
_THRESHOLD = 128 * 1024


@cache
def give_back_big_blocks() -> None:
    """Fix glibc's mmap threshold (once; a no-op without glibc)."""
    import ctypes

    try:
        mallopt = ctypes.CDLL(None).mallopt  # the process's own C library
    except (OSError, AttributeError, TypeError):
        return
    mallopt(_M_MMAP_THRESHOLD, _THRESHOLD)
