"""``store.config.load_config``: what a read returns follows the file, whatever was read
before (a read is kept only while the file keeps its identity)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from toon_memory.errors import CorruptFileError
from toon_memory.store.config import load_config, update_config


def test_every_change_to_the_file_is_read(tmp_path: Path) -> None:
    path = tmp_path / "config.json"
    assert load_config(path).session_window_minutes == 10  # missing: the default
    path.write_text('{"sessionWindowMinutes": 25}')
    assert load_config(path).session_window_minutes == 25
    assert load_config(path) is load_config(path)  # unchanged: the same read
    stat = path.stat()
    path.write_text('{"sessionWindowMinutes": 35}')  # in place, the same size: a later time
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1))
    assert load_config(path).session_window_minutes == 35
    update_config(path, {"sessionWindowMinutes": 45})
    assert load_config(path).session_window_minutes == 45
    path.unlink()
    assert load_config(path).session_window_minutes == 10


def test_a_file_damaged_after_a_good_read_is_named(tmp_path: Path) -> None:
    path = tmp_path / "config.json"
    path.write_text('{"merge": "keep-first"}')
    assert load_config(path).merge == "keep-first"
    path.write_text('{"merge": ')
    with pytest.raises(CorruptFileError, match=r"config\.json"):
        load_config(path)
