"""``toon-memory import`` draws a progress bar on a terminal and nothing on a pipe; tqdm is
imported by that command only (a hook, recall or the MCP server never pays for it)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pexpect

ROWS = 2500


def _export(path: Path, n: int = ROWS) -> Path:
    rows = [{"key": f"k-{i}", "category": "bug", "content": f"entry number {i} about retries"}
            for i in range(n)]  # fmt: skip
    path.write_text(json.dumps({"version": 1, "entries": rows}))
    return path


def _env(project: Path) -> dict[str, str]:
    return {**os.environ, "TOON_MEMORY_PROJECT": str(project), "TERM": "dumb", "COLUMNS": "100"}


def test_a_terminal_sees_the_bar_reach_every_row(project: Path, tmp_path: Path) -> None:
    export = _export(tmp_path / "export.json")
    child = pexpect.spawn(sys.executable, ["-m", "toon_memory", "import", str(export)],
                          env=_env(project), encoding="utf-8", timeout=120)  # fmt: skip
    child.expect(pexpect.EOF)
    child.close()
    shown = str(child.before)
    assert child.exitstatus == 0, shown
    assert "import: 100%" in shown and "2.50k/2.50k" in shown, shown
    assert "Imported 2500, skipped 0" in shown.split("2.50k/2.50k")[-1], shown  # then the report


def test_a_pipe_sees_no_bar_and_the_same_report(project: Path, tmp_path: Path) -> None:
    export = _export(tmp_path / "export.json")
    done = subprocess.run([sys.executable, "-m", "toon_memory", "import", str(export), "--json"],
                          env=_env(project), capture_output=True, text=True, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert json.loads(done.stdout)["added"] == ROWS


def _imports_tqdm(project: Path, *args: str, stdin: str = "") -> bool:
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "toon_memory", *args],
                          env=_env(project), capture_output=True, text=True, input=stdin,
                          timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    return any(line.rstrip().endswith(" tqdm") for line in done.stderr.splitlines())


def test_only_the_import_command_imports_tqdm(project: Path, tmp_path: Path) -> None:
    export = _export(tmp_path / "export.json", 10)
    assert not _imports_tqdm(project, "import", str(export))  # on a pipe: not even there
    hook = json.dumps({"session_id": "s-1", "hook_event_name": "SessionStart"})
    assert not _imports_tqdm(project, "hook", "session-start", stdin=hook)
    assert not _imports_tqdm(project, "recall", "retries")
    server = subprocess.run([sys.executable, "-c", "import sys\n"
                             "import toon_memory.adapters.server.app\n"
                             "print('tqdm' in sys.modules)"], env=_env(project),
                            capture_output=True, text=True, timeout=120)  # fmt: skip
    assert server.stdout.strip() == "False", server.stderr
