"""The lazy click group: one table of command modules, and only the running command's module loaded."""

from __future__ import annotations

import importlib
import pkgutil
import subprocess
import sys
from pathlib import Path

import toon_memory.adapters.cli as cli_package
from toon_memory.adapters.cli.group import COMMAND_MODULES

#: command modules with entry points of their own (pyproject), not in the group
STANDALONE = {"slm_commands"}
PROBE = """
import sys
from toon_memory.adapters.cli.group import cli
try:
    cli(args=sys.argv[1:], prog_name="toon-memory", standalone_mode=False)
finally:
    loaded = sorted(m.rsplit(".", 1)[1] for m in sys.modules
                    if m.startswith("toon_memory.adapters.cli.") and m.endswith(("commands", "command")))
    print("LOADED", ",".join(loaded))
"""


def test_the_table_names_every_command_of_every_command_module() -> None:
    found = {}
    for info in pkgutil.iter_modules(cli_package.__path__):
        module = importlib.import_module(f"toon_memory.adapters.cli.{info.name}")
        if hasattr(module, "COMMANDS") and info.name not in STANDALONE:
            found[info.name] = tuple(command.name for command in module.COMMANDS)
    assert found == COMMAND_MODULES


def _loaded(project: Path, *args: str) -> tuple[list[str], str]:
    done = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True,
                          env={"TOON_MEMORY_PROJECT": str(project), "PATH": "/usr/bin:/bin",
                               "HOME": str(project)}, check=True)  # fmt: skip
    last = done.stdout.strip().splitlines()[-1]
    assert last.startswith("LOADED ")
    return last.removeprefix("LOADED ").split(","), done.stdout


def test_a_command_loads_only_its_own_module(project: Path) -> None:
    loaded, out = _loaded(project, "stats")
    assert "active" in out
    # hook_command is loaded by session_commands only; stats needs the core module alone
    assert loaded == ["commands"]
    loaded, out = _loaded(project, "recall", "nothing here")
    assert loaded == ["recall_commands"]


def test_help_lists_every_command_with_its_short_help(project: Path) -> None:
    loaded, out = _loaded(project, "--help")
    for names in COMMAND_MODULES.values():
        for name in names:
            assert f"\n  {name} " in out
    assert "Find the entries that matter for QUERY" in out
    assert set(COMMAND_MODULES) <= set(loaded)
