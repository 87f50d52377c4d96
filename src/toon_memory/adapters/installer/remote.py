"""The address of a team server: its URL and the environment variable holding the token.

Invariant: a ``RemoteServer`` is checked once, here (``remote_server``): an
``http``/``https`` URL with a host and no user or password in it, and a
variable name a shell can export; it never holds the token itself, only the
variable's name, so nothing built from it (an agent's entry, a hook line)
can carry the secret into a file. ``hook_args`` are the arguments a hook line
gives ``toon-memory hook`` to reach the same server.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urlsplit

from toon_memory.errors import InputError, quote

#: Where ``--server`` and ``--token-env`` are read from when not given.
SERVER_ENV = "TOON_MEMORY_SERVER"
DEFAULT_TOKEN_ENV = "TOON_MEMORY_TOKEN"
_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True)
class RemoteServer:
    """A team server's MCP URL (``…/mcp`` or ``…/mcp/<project>``) and the token's variable."""

    url: str
    token_env: str = DEFAULT_TOKEN_ENV

    def hook_args(self) -> tuple[str, ...]:
        """``--server URL`` (and ``--token-env VAR`` when not the default) for a hook line."""
        extra = () if self.token_env == DEFAULT_TOKEN_ENV else ("--token-env", self.token_env)
        return ("--server", self.url, *extra)


def remote_server(url: str, token_env: str | None = None) -> RemoteServer:
    """The checked address: InputError naming ``server`` or ``token_env`` otherwise."""
    url = url.strip()
    try:
        parts = urlsplit(url)
        host = parts.hostname
    except ValueError:
        host, parts = None, None
    if parts is None or parts.scheme not in ("http", "https") or not host:
        raise InputError(
            "server", f"must be an http:// or https:// URL with a host; got {quote(url)}"
        )
    if parts.username or parts.password:
        raise InputError("server", "must not hold a user or password (the token comes from "
                         "--token-env)")  # fmt: skip
    name = (token_env or DEFAULT_TOKEN_ENV).strip()
    if not _ENV_NAME.fullmatch(name):
        raise InputError("token_env", f"must be an environment variable name (letters, digits, "
                         f"_; not a digit first); got {quote(name)}")  # fmt: skip
    return RemoteServer(url, name)
