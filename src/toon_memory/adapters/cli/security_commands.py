"""The security commands: encrypt, decrypt and the secrets vault.

Invariant: each is one ``Memory.security`` call plus one shared renderer
(``render.security``), listed in ``COMMANDS`` and added to the group by
``cli.main``; every command takes ``--json``. A secret value comes from
``--value`` only (stdin is never read, so no call can block on it). Importing
this module loads click and nothing of the core.
"""

from __future__ import annotations

import click

from toon_memory.adapters.cli.invocation import Context, handles_errors, json_option, pass_ctx, show
from toon_memory.model.entry import SECRET_ACTIONS


@click.command()
@json_option
@pass_ctx
@handles_errors
def encrypt(ctx: Context, as_json: bool) -> None:
    """Encrypt this memory at rest with the passphrase in TOON_MEMORY_KEY."""
    from toon_memory.render.security import converted

    show(converted(ctx.memory.security.encrypt(), {}), as_json)


@click.command()
@json_option
@pass_ctx
@handles_errors
def decrypt(ctx: Context, as_json: bool) -> None:
    """Write an encrypted memory in clear again (needs TOON_MEMORY_KEY)."""
    from toon_memory.render.security import converted

    show(converted(ctx.memory.security.decrypt(), {}), as_json)


@click.command()
@click.argument("action", type=click.Choice(SECRET_ACTIONS))
@click.argument("name", required=False, default="")
@click.option("--value", default="", help="The value to store (action store only).")
@json_option
@pass_ctx
@handles_errors
def secret(ctx: Context, action: str, name: str, value: str, as_json: bool) -> None:
    """Keep credentials out of memory: store|get|list|forget NAME in the encrypted vault."""
    from toon_memory.render.security import secret as render

    call = {"action": action, "name": name}
    show(render(ctx.memory.security.secret(action, name, value), call), as_json)


COMMANDS: tuple[click.Command, ...] = (encrypt, decrypt, secret)
