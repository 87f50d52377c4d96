"""A progress bar on the terminal for a long command (``import``), drawn by ``tqdm``.

Invariant: a bar is drawn only when stderr is a terminal; on a pipe or a file
nothing is written and ``tqdm`` is not even imported, and no other command
pays for it (it is imported here, lazily, and this module only by the
commands that show a bar). The core reports through a plain
``progress(done, total)`` callback; this module turns the calls into a bar.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

Progress = Callable[[int, int], None]


@contextmanager
def progress_bar(label: str, unit: str) -> Iterator[Progress | None]:
    """A ``progress(done, total)`` callback drawing a bar on stderr; None when stderr
    is not a terminal. The bar is closed (its last state left on screen) on exit."""
    if not sys.stderr.isatty():
        yield None
        return
    from tqdm import tqdm

    bar: Any = tqdm(desc=label, unit=f" {unit}", unit_scale=True, file=sys.stderr,
                    dynamic_ncols=True, leave=True)  # fmt: skip

    def report(done: int, total: int) -> None:
        if bar.total != total:
            bar.total = total
        bar.update(done - bar.n)

    try:
        yield report
    finally:
        bar.close()
