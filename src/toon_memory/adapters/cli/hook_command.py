"""``toon-memory hook session-start|post-tool|stop|pre-commit``: the click command.

Invariant: the same hook as ``cli.hook_run`` (which holds every rule: never
breaks its agent, exits 0, stdout only from session-start); this command
only reads the arguments click parses (``--project``, unknown options,
``--help``). The plain lines the installer writes skip click altogether
(``cli.main``).
"""

from __future__ import annotations

import click

from toon_memory.adapters.cli.hook_run import run_and_report
from toon_memory.adapters.cli.invocation import Invocation, pass_ctx
from toon_memory.adapters.cli.remote import server_options


@click.command(context_settings={"ignore_unknown_options": True, "allow_extra_args": True})
@click.argument("action", required=False, default="")
@click.option("--agent", default=None, help="The agent running the hook (claude, codex, gemini…).")
@server_options
@pass_ctx
def hook(ctx: Invocation, action: str, agent: str | None, server: str | None,
         token_env: str | None) -> None:  # fmt: skip
    """Run by agent hooks: session-start, post-tool or stop, with the JSON payload on stdin;
    and by git: pre-commit.

    session-start registers the session and prints the other active sessions,
    soft conflicts and the primer; post-tool records the files touched; stop
    ends the session; pre-commit folds the journal into data.toon and stages
    the memory files. Never fails: problems go to stderr, the exit code is 0.
    With --server, session-start prints the team server's primer instead.
    """
    run_and_report(ctx.project, action, agent, server, token_env)
