"""The sharing commands (encryption, sharing and team sync issue).

Invariant: each is one ``Memory`` call plus one shared renderer, listed in
``COMMANDS`` and added to the group by ``cli.main``.
"""

from __future__ import annotations

import click

COMMANDS: tuple[click.Command, ...] = ()
