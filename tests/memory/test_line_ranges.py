"""A memory about ``src/a.py:10-20`` is a memory about ``src/a.py``, end to end."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from toon_memory import Memory


def _git(project: Path, *args: str) -> None:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t"}  # fmt: skip
    subprocess.run(["git", *args], cwd=project, check=True, capture_output=True, env=env)


def test_line_range_entry_is_verified_scoped_and_session_biased(project: Path) -> None:
    (project / ".git").rmdir()
    _git(project, "init", "-q", "-b", "main")
    (project / "src").mkdir()
    for name in ("a.py", "b.py"):
        (project / "src" / name).write_text("x = 1\n")
    _git(project, "add", ".")
    _git(project, "commit", "-q", "-m", "init")
    memory = Memory(project)
    text = "Retry logic for the HTTP client"
    ranged = memory.remember("knowledge", "a-retry", text, file="src/a.py:10-20").entry
    memory.remember("knowledge", "b-retry", text, file="src/b.py:30-40")
    assert ranged.evidence == "verified"

    assert memory.search("retry", path_scope="src/a.py").keys == ["a-retry"]
    assert memory.search("retry", path_scope="./src/a.py:1-2").keys == ["a-retry"]

    plain = memory.recall("retry")
    assert plain.keys == ["a-retry", "b-retry"]  # equal scores: by key
    (project / "src" / "b.py").write_text("x = 2\n")  # the session touches src/b.py
    biased = memory.recall("retry", session_bias=True)
    assert biased.keys == ["b-retry", "a-retry"]
    assert biased.hits[0].score > plain.hits[1].score
