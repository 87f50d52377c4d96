"""The secrets vault: named values kept only in an encrypted ``secrets.toon``.

Invariant: a secret value is written nowhere but ``secrets.toon`` beside
data.toon, sealed (AES-256-GCM, purpose ``secrets``) with the key of the
folder's ``encryption.json`` (created, with the memory left plain, when the
vault is first used); never to data.toon, the journal, a backup, a cache, a
log or an error message. The whole file is replaced atomically under the
store lock, so two processes never lose each other's secrets. Needs
``TOON_MEMORY_KEY``; a wrong key or a changed byte raises ``EncryptionError``
and nothing is written.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toon_memory.errors import CorruptFileError, EncryptionError, InputError, quote
from toon_memory.store import crypto, keys
from toon_memory.system.atomic import write_atomic
from toon_memory.system.lock import FileLock

FILE = "secrets.toon"
NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.\-]{0,63}")
MAX_VALUE = 64 * 1024


@dataclass(frozen=True)
class Secret:
    name: str
    value: str
    updated: str


def check_name(name: object) -> str:
    """A valid secret name (letters, digits, ``_ . -``; up to 64), else ``InputError``."""
    if not isinstance(name, str) or not NAME_PATTERN.fullmatch(name):
        raise InputError(
            "name", "must be 1-64 letters, digits, '_', '.' or '-', starting with a letter or digit"
        )
    return name


def check_value(value: object) -> str:
    """A storable value; the error never repeats it."""
    if not isinstance(value, str) or not value:
        raise InputError("value", "must be a non-empty string")
    if len(value.encode("utf-8")) > MAX_VALUE:
        raise InputError("value", f"is longer than {MAX_VALUE} bytes")
    return value


def vault_key(folder: Path) -> crypto.Key:
    """The folder's key; new encryption settings (memory left plain) when it has none."""
    settings = keys.read_settings(folder)
    if settings is not None:
        return keys.key_for(folder, settings)
    settings, key = keys.new_settings(memory=False)
    folder.mkdir(parents=True, exist_ok=True)
    keys.write_settings(folder, settings)
    return key


def read_secrets(folder: Path, key: crypto.Key) -> dict[str, Secret]:
    """Every secret by name (empty when there is no vault yet)."""
    import toon_format

    path = folder / FILE
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return {}
    if not crypto.is_sealed(raw):
        raise EncryptionError(f"{path} is not sealed; refusing to read or extend it")
    text = crypto.open_sealed(key, raw, keys.SECRETS, str(path)).decode("utf-8")
    try:
        data: Any = toon_format.loads(text, strict=True)
        rows = data["secrets"] or []
        found = [Secret(str(r["name"]), str(r["value"]), str(r["updated"])) for r in rows]
    except (toon_format.ToonDecodeError, KeyError, TypeError):
        raise CorruptFileError(path, None, "the opened vault is not a secrets table") from None
    return {secret.name: secret for secret in found}


def write_secrets(folder: Path, key: crypto.Key, secrets: dict[str, Secret]) -> None:
    import toon_format

    rows = [{"name": s.name, "value": s.value, "updated": s.updated} for s in secrets.values()]
    text = toon_format.encode({"version": 1, "secrets": rows}, delimiter="|") + "\n"
    write_atomic(folder / FILE, crypto.seal(key, text.encode("utf-8"), keys.SECRETS))


class Vault:
    """The secrets of one memory folder, changed under that memory's lock."""

    def __init__(self, folder: Path, lock: FileLock) -> None:
        self.folder = folder
        self.lock = lock

    def store(self, name: str, value: str, day: str) -> bool:
        """Keep ``value`` under ``name``; True when it replaced another value."""
        name, value = check_name(name), check_value(value)
        with self.lock:
            key = vault_key(self.folder)
            secrets = read_secrets(self.folder, key)
            replaced = name in secrets
            secrets[name] = Secret(name, value, day)
            write_secrets(self.folder, key, secrets)
        return replaced

    def get(self, name: str) -> Secret:
        name = check_name(name)
        found = read_secrets(self.folder, self._key()).get(name)
        if found is None:
            raise InputError(
                "name", f"no secret named {quote(name)} (memory_secret list shows them)"
            )
        return found

    def names(self) -> list[Secret]:
        """Every secret (values included; the caller shows only names and dates)."""
        return sorted(read_secrets(self.folder, self._key()).values(), key=lambda s: s.name)

    def forget(self, name: str) -> None:
        name = check_name(name)
        with self.lock:
            key = self._key()
            secrets = read_secrets(self.folder, key)
            if secrets.pop(name, None) is None:
                raise InputError("name", f"no secret named {quote(name)}; nothing was changed")
            write_secrets(self.folder, key, secrets)

    def _key(self) -> crypto.Key:
        settings = keys.read_settings(self.folder)
        if settings is None:
            keys.passphrase()  # a missing key is the first thing to say
            raise InputError(
                "name", "this memory has no secrets yet (memory_secret store adds one)"
            )
        return keys.key_for(self.folder, settings)
