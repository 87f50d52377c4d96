"""The CLI run in-process (click's CliRunner): fast, with exit code, stdout and stderr apart."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from click.testing import CliRunner

from toon_memory.adapters.cli.main import cli


@dataclass(frozen=True)
class Done:
    """What one in-process CLI call did (``exception`` is an uncaught one, else None)."""

    returncode: int
    stdout: str
    stderr: str
    exception: BaseException | None


def invoke(*args: str, project: Path | None = None, env: dict[str, str] | None = None) -> Done:
    """Run ``toon-memory ARGS`` in this process (exceptions are caught and returned)."""
    full_env = dict(env or {})
    if project is not None:
        full_env.setdefault("TOON_MEMORY_PROJECT", str(project))
    result = CliRunner().invoke(cli, list(args), env=full_env, catch_exceptions=True)
    uncaught = None if isinstance(result.exception, SystemExit) else result.exception
    return Done(result.exit_code, result.stdout, result.stderr, uncaught)


def invoke_many(calls: Sequence[Sequence[str]], project: Path) -> list[Done]:
    return [invoke(*args, project=project) for args in calls]
