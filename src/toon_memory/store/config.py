"""``config.json`` of a memory folder: settings with sane defaults.

Invariant: reading never fails on a missing file (defaults apply) and names
the file on a malformed one; writing merges into what is there (keys this
version does not know, such as ``encrypted`` or ``capture``, are kept) and
is atomic. A read is kept with the identity (inode, mtime, size) of the file it
came from and served again while the file keeps it (a long-lived process asks on
every call: one ``stat`` then, not a read and a parse).

The settings themselves and their defaults are ``model.settings``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from toon_memory.model.settings import Config, config_from_dict
from toon_memory.store.cache import FileId, file_id
from toon_memory.system.atomic import write_atomic
from toon_memory.system.jsonfile import read_json_object

#: The last settings read from each path, with the identity the file had before the read.
_READ: dict[Path, tuple[FileId | None, Config]] = {}


def load_config(path: Path) -> Config:
    """The settings in config.json at ``path`` (defaults where it is missing)."""
    identity = file_id(path)
    kept = _READ.get(path)
    if kept is not None and kept[0] == identity:
        return kept[1]
    config = config_from_dict(read_json_object(path), path)
    _READ[path] = (identity, config)
    return config


def update_config(path: Path, changes: dict[str, Any]) -> dict[str, Any]:
    """Merge ``changes`` into config.json (atomically) and return the result."""
    data = read_json_object(path)
    data.update(changes)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode())
    return data
