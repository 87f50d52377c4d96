"""The CLI under generated argument lists: never a traceback, exit codes as documented.

Every command of the ``toon-memory`` group (but those that start servers,
run the installer or build demo folders) is driven with generated arguments:
valid choices and nasty values (huge, empty, numeric edge cases, lone
surrogates as undecodable bytes become, dates and spans out of range, the
memory's own files as paths, unknown options). Each call must end with exit
code 0, 1 or 2, print no traceback, and a refused call (exit 1 or 2) must
leave the memory's files byte-identical.

Most examples run in-process (click's CliRunner, fast); a few go through real
subprocesses. ``TOON_MEMORY_FUZZ_EXAMPLES=<n>`` raises the example count.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import click
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.clirunner import invoke
from tests.conftest import run_cli

from toon_memory import Memory
from toon_memory.adapters.cli.main import cli
from toon_memory.store.paths import MemoryPaths

EXAMPLES = int(os.environ.get("TOON_MEMORY_FUZZ_EXAMPLES", "0") or 0)
#: Some drawn arguments are 200,000 characters long; hypothesis warns when it prints such a call.
LARGE_REPR = pytest.mark.filterwarnings("ignore:Generating overly large repr")
#: Commands left out: they start servers, edit agent configs or build folders elsewhere.
# Left out: servers and loops that run until stopped (mcp, viewer, watch), the installer, demo
# folders, and gist (its import of a public gist would reach the network).
SKIPPED = frozenset({"mcp", "viewer", "watch", "gist", "demo", "init", "install", "uninstall",
                     "upgrade", "status"})  # fmt: skip
EXIT_CODES = {0, 1, 2}


def _commands() -> dict[str, click.Command]:
    found: dict[str, click.Command] = {}
    for name, command in cli.commands.items():
        if name in SKIPPED:
            continue
        if isinstance(command, click.Group):
            found.update({f"{name} {sub}": c for sub, c in command.commands.items()})
        else:
            found[name] = command
    return found


COMMANDS = _commands()

_NASTY = st.sampled_from([
    "", " ", "0", "-1", "1", "5", "99999999999999999999", "-99999999999999999999", "1e309",
    "Infinity", "NaN", "null", "true", "[]", "{}", '{"a":', "9999999d", "99999999999d",
    "99999999999999999999d", "0h", "-1d", "24h", "20260101", "2026-W01", "2026-01-01T10:00",
    "2026-13-45", "0000-00-00", "9999-12-31", "2026-07-15", "use-zod", "no-eval", "idea",
    "decision", "a|b", "a\nb", "tab\there", "\x00", "caf\udce9", "\ud800", "e\u0301",
    "relates:", "nope:target", "[[use-zod]]", "-", "--", "--bogus", "x" * 300, "é" * 40000,
])  # fmt: skip
_SANE = st.sampled_from([
    "knowledge", "decision", "warning", "use-zod", "no-eval", "fresh-key", "zod schemas",
    "Validate input at the API edge", "api;zod", "7d", "2026-07-01", "src/app.py", "high", "0.5",
])  # fmt: skip
_TEXT = st.one_of(
    _SANE,
    _NASTY,
    st.text(st.characters(codec=None, exclude_categories=()), max_size=40),
    st.integers(min_value=0, max_value=200_000).map(lambda n: "w" * n),
)


def _path_values(root: Path) -> st.SearchStrategy[str]:
    paths = MemoryPaths.for_project(root)
    return st.sampled_from([
        str(paths.data), str(paths.journal), str(paths.archive), str(paths.config),
        str(paths.folder), str(paths.folder / "new.json"), str(root / "out.json"),
        str(root / "missing" / "deep" / "out.json"), str(root / "seed.json"), "/dev/null",
        str(root / "empty.toon"), str(root), "", str(root / "caf\udce9.json"),
    ])  # fmt: skip


def _option_value(param: click.Parameter, root: Path) -> st.SearchStrategy[str]:
    if isinstance(param.type, click.Path):
        return _path_values(root)
    if isinstance(param.type, click.Choice):
        return st.one_of(st.sampled_from([str(c) for c in param.type.choices]), _NASTY)
    if isinstance(param.type, click.types.IntParamType):
        return st.one_of(st.integers(-(10**20), 10**20).map(str), _NASTY)
    return _TEXT


@st.composite
def argument_lists(draw: st.DrawFn, root: Path) -> list[str]:
    """A command name and a generated argument list for it."""
    name = draw(st.sampled_from(sorted(COMMANDS)))
    command = COMMANDS[name]
    args = name.split()
    for param in command.params:
        if not draw(st.integers(0, 9) if param.required else st.integers(0, 1)):
            continue
        if isinstance(param, click.Argument):
            args.append(draw(_option_value(param, root)))
        elif isinstance(param, click.Option):
            args.append(draw(st.sampled_from(param.opts)))
            if not param.is_flag:
                args.append(draw(_option_value(param, root)))
    if draw(st.integers(0, 9)) == 0:
        args.insert(draw(st.integers(1, len(args))), draw(_NASTY))
    return args


def _files(root: Path) -> dict[str, bytes | None]:
    paths = MemoryPaths.for_project(root)
    found: dict[str, bytes | None] = {}
    for path in (paths.data, paths.journal, paths.archive, paths.config):
        try:
            found[path.name] = path.read_bytes()
        except OSError:
            found[path.name] = None
    return found


@pytest.fixture(scope="module")
def fuzz_root() -> Iterator[Path]:
    """One seeded project for a whole test: examples share it (and change it when they succeed)."""
    base = Path(tempfile.mkdtemp(prefix="toon-memory-fuzz-"))
    home, root = base / "home", base / "project"
    (root / ".git").mkdir(parents=True)
    home.mkdir()
    saved = {name: os.environ.get(name) for name in ("TOON_MEMORY_HOME", "TOON_MEMORY_TODAY")}
    os.environ.update(TOON_MEMORY_HOME=str(home), TOON_MEMORY_TODAY="2026-07-15")
    cwd = os.getcwd()
    os.chdir(root)  # a relative path a call writes to lands in the throw-away project
    memory = Memory(root)
    memory.remember("decision", "use-zod", "Validate API input with zod schemas", tags="api")
    memory.remember("warning", "no-eval", "Never call eval on user input", links="use-zod")
    memory.backup()
    (root / "seed.json").write_text('[{"key": "seeded", "content": "from a file"}]')
    (root / "empty.toon").write_text("")
    yield root
    os.chdir(cwd)
    for name, value in saved.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
    shutil.rmtree(base, ignore_errors=True)


def _check(args: list[str], code: int, stderr: str, before: dict[str, bytes | None],
           root: Path) -> None:  # fmt: skip
    assert code in EXIT_CODES, (args, code, stderr)
    assert "Traceback" not in stderr, (args, stderr)
    if code != 0:
        assert _files(root) == before, ("a refused call changed the memory", args, stderr)


def _no_nul(args: list[str]) -> bool:
    """No command line carries a NUL (argv strings end at one) or a surrogate outside
    U+DC80..U+DCFF (``_encodable``): click's own path check would raise on them before our
    code runs. The API and MCP refuse them themselves (tested there)."""
    return all("\x00" not in arg for arg in args)


@LARGE_REPR
def test_fuzz_cli_in_process(fuzz_root: Path) -> None:
    @settings(max_examples=EXAMPLES or 60, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))  # fmt: skip
    @given(args=argument_lists(fuzz_root).filter(_encodable))
    def run(args: list[str]) -> None:
        before = _files(fuzz_root)
        done = invoke(*args, project=fuzz_root)
        assert done.exception is None, (args, repr(done.exception))
        _check(args, done.returncode, done.stderr, before, fuzz_root)

    run()


#: Linux refuses one argument of this many bytes or more (MAX_ARG_STRLEN, the NUL included).
MAX_ARG_BYTES = 131_072


def _encodable(args: list[str]) -> bool:
    """Arguments a real command line can carry (undecodable bytes arrive as U+DC80..U+DCFF;
    one argument is shorter than ``MAX_ARG_BYTES``)."""
    try:
        if any(len(os.fsencode(arg)) >= MAX_ARG_BYTES for arg in args):
            return False
    except UnicodeEncodeError:
        return False
    return _no_nul(args)


@LARGE_REPR
def test_fuzz_cli_subprocess(fuzz_root: Path) -> None:
    @settings(max_examples=max(EXAMPLES // 10, 6), deadline=None, database=None,
              suppress_health_check=list(HealthCheck))  # fmt: skip
    @given(args=argument_lists(fuzz_root).filter(_encodable))
    def run(args: list[str]) -> None:
        before = _files(fuzz_root)
        done = run_cli(*args, project=fuzz_root)
        _check(args, done.returncode, done.stderr, before, fuzz_root)

    run()


def test_a_file_name_that_is_not_utf8_is_printed_with_its_own_bytes(fuzz_root: Path) -> None:
    """Found by the fuzz: ``export caf\\xe9.json`` writes that file and names it byte for byte."""
    target = str(fuzz_root / "caf\udce9.json")
    done = run_cli("export", target, project=fuzz_root)
    assert done.returncode == 0, done.stderr
    assert target in done.stdout and os.path.isfile(os.fsencode(target))
    os.remove(os.fsencode(target))
