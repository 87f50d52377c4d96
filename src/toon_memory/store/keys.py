"""The encryption settings of one memory folder and the key that opens it.

Invariant: ``encryption.json`` (beside data.toon) holds only the scrypt salt,
the KDF cost, a key check value (a sealed constant) and whether the memory's
own files are encrypted (``memory``); the passphrase comes from the
environment (``TOON_MEMORY_KEY``) and neither it nor the key is ever written.
A folder without that file is a plaintext memory and costs one ``stat``:
``cryptography`` is not imported. ``cipher_for`` returns None for a plaintext
memory and raises ``EncryptionError`` (before any file is touched) when the
memory is encrypted and the key is missing or wrong. ``read_bytes`` tells a
sealed file from a plain one by its first bytes, so a memory caught half way
through ``encrypt`` or ``decrypt`` still reads.
"""

from __future__ import annotations

import base64
import json
import os
from dataclasses import dataclass, field
from pathlib import Path

from toon_memory.errors import FIX_ADVICE, CorruptFileError, EncryptionError
from toon_memory.store import crypto
from toon_memory.system.atomic import write_atomic

SETTINGS = "encryption.json"
ENV = "TOON_MEMORY_KEY"
_CHECK = b"toon-memory key check v1"
DOCUMENT, JOURNAL, CACHE, SECRETS = "document", "journal", "cache", "secrets"
_KEYS: dict[tuple[str, bytes, str, str], crypto.Key] = {}


@dataclass(frozen=True)
class Settings:
    """What ``encryption.json`` holds: salt, KDF cost, key check, memory files encrypted."""

    salt: bytes
    check: bytes
    memory: bool
    kdf: dict[str, int] = field(default_factory=lambda: dict(crypto.DEFAULT_KDF))

    def to_json(self) -> bytes:
        data = {
            "version": 1, "cipher": "AES-256-GCM", "kdf": "scrypt", **self.kdf,
            "salt": base64.b64encode(self.salt).decode(),
            "check": base64.b64encode(self.check).decode(), "memory": self.memory,
        }  # fmt: skip
        return (json.dumps(data, indent=2) + "\n").encode()


def settings_path(folder: Path) -> Path:
    return folder / SETTINGS


def read_settings(folder: Path) -> Settings | None:
    """The folder's settings; None when it has none; ``CorruptFileError`` when unreadable."""
    path = settings_path(folder)
    try:
        raw = path.read_bytes()
    except (FileNotFoundError, NotADirectoryError):
        return None
    try:
        data = json.loads(raw)
        kdf = {name: int(data[name]) for name in ("n", "r", "p")}
        return Settings(
            base64.b64decode(data["salt"], validate=True),
            base64.b64decode(data["check"], validate=True),
            bool(data["memory"]),
            kdf,
        )
    except (ValueError, KeyError, TypeError) as exc:
        raise CorruptFileError(path, None, f"not encryption settings ({exc})", FIX_ADVICE) from None


def write_settings(folder: Path, settings: Settings) -> None:
    write_atomic(settings_path(folder), settings.to_json())


def passphrase() -> str:
    """``TOON_MEMORY_KEY``; ``EncryptionError`` when it is unset or empty."""
    value = os.environ.get(ENV, "")
    if not value:
        raise EncryptionError(
            f"{ENV} is not set: this memory's encrypted files need the passphrase in that "
            "environment variable; nothing was changed"
        )
    return value


def new_settings(memory: bool) -> tuple[Settings, crypto.Key]:
    """Fresh settings (random salt) for the passphrase in the environment, and its key."""
    salt = crypto.new_salt()
    key = crypto.derive(passphrase(), salt, crypto.DEFAULT_KDF)
    return Settings(salt, crypto.seal(key, _CHECK, "check"), memory), key


def key_for(folder: Path, settings: Settings) -> crypto.Key:
    """The key of ``TOON_MEMORY_KEY`` for ``settings`` (derived once per process), checked."""
    import hashlib  # an encrypted memory only (loading OpenSSL costs every start-up)

    secret = passphrase()
    memo = (str(folder), settings.salt + settings.check, repr(sorted(settings.kdf.items())),
            hashlib.sha256(secret.encode()).hexdigest())  # fmt: skip
    key = _KEYS.get(memo)
    if key is None:
        key = crypto.derive(secret, settings.salt, settings.kdf)
        try:
            crypto.open_sealed(key, settings.check, "check", SETTINGS)
        except EncryptionError:
            raise EncryptionError(
                f"{ENV} is not the passphrase of {folder} (the key check in {SETTINGS} "
                "does not match); nothing was changed"
            ) from None
        _KEYS[memo] = key
    return key


def cipher_for(folder: Path) -> crypto.Key | None:
    """The key of an encrypted memory folder; None when its files are plain."""
    settings = read_settings(folder)
    if settings is None or not settings.memory:
        return None
    return key_for(folder, settings)


def is_encrypted(folder: Path) -> bool:
    """Are the memory's own files encrypted? (no key needed)"""
    settings = read_settings(folder)
    return settings is not None and settings.memory


def read_bytes(path: Path, key: crypto.Key | None, purpose: str = DOCUMENT) -> bytes:
    """The plaintext of ``path``: opened when sealed, as it is when plain.

    Raises ``FileNotFoundError`` like ``Path.read_bytes``, and ``EncryptionError``
    when the file is sealed and no key is set or it does not open.
    """
    raw = path.read_bytes()
    if not crypto.is_sealed(raw):
        return raw
    if key is None:
        raise EncryptionError(f"{path} is encrypted: set {ENV} to its passphrase")
    return crypto.open_sealed(key, raw, purpose, str(path))


def seal_bytes(data: bytes, key: crypto.Key | None, purpose: str = DOCUMENT) -> bytes:
    """``data`` sealed when a key is given, as it is otherwise."""
    return data if key is None else crypto.seal(key, data, purpose)
