"""AES-256-GCM sealing with a key derived from a passphrase (scrypt).

Invariant: ``seal`` uses a fresh random 96-bit nonce for every call and binds
the ciphertext to a ``purpose`` (associated data), so a sealed journal line
cannot pass for a sealed document or cache; ``open_sealed`` returns the
plaintext only when the tag verifies and raises ``EncryptionError`` otherwise
(a wrong key, a changed byte, a file of another purpose). A sealed file starts
with ``MAGIC``; a sealed line is ``LINE_MARK`` + base64 + newline, so a reader
tells sealed from plain bytes without a key. The ``cryptography`` package is
imported only here and only when a key is derived or used: a plaintext memory
never imports it. Nothing here writes a file, and no key or passphrase is
ever part of an error message.
"""

from __future__ import annotations

import base64
import binascii
import os
from dataclasses import dataclass
from typing import Any

from toon_memory.errors import EncryptionError

MAGIC = b"TOONMEMENC1\n"
LINE_MARK = b"~"
NONCE_BYTES = 12
KEY_BYTES = 32
SALT_BYTES = 16
#: scrypt cost: 2**15 x 8 x 128 B = 32 MiB, about 70 ms on a laptop (stored per folder).
DEFAULT_KDF: dict[str, int] = {"n": 2**15, "r": 8, "p": 1}


@dataclass(frozen=True)
class Key:
    """A derived 256-bit key (kept in this process only; ``repr`` never shows it)."""

    raw: bytes

    def __repr__(self) -> str:
        return "Key(<hidden>)"

    def _aead(self) -> Any:
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM

        return AESGCM(self.raw)


def new_salt() -> bytes:
    return os.urandom(SALT_BYTES)


def derive(passphrase: str, salt: bytes, params: dict[str, int]) -> Key:
    """The scrypt key of ``passphrase`` with ``salt`` and cost ``params`` (n, r, p)."""
    from cryptography.hazmat.primitives.kdf.scrypt import Scrypt

    n, r, p = int(params["n"]), int(params["r"]), int(params["p"])
    kdf = Scrypt(salt=salt, length=KEY_BYTES, n=n, r=r, p=p)
    return Key(kdf.derive(passphrase.encode("utf-8")))


def seal(key: Key, plaintext: bytes, purpose: str) -> bytes:
    """``MAGIC`` + nonce + AES-GCM ciphertext and tag of ``plaintext``."""
    nonce = os.urandom(NONCE_BYTES)
    return MAGIC + nonce + bytes(key._aead().encrypt(nonce, plaintext, purpose.encode()))


def is_sealed(data: bytes) -> bool:
    return data.startswith(MAGIC)


def open_sealed(key: Key, data: bytes, purpose: str, where: str) -> bytes:
    """The plaintext of a ``seal`` result; ``EncryptionError`` naming ``where`` if it fails."""
    from cryptography.exceptions import InvalidTag

    view = memoryview(data)[len(MAGIC) :]  # no copy of a large cache
    if not data.startswith(MAGIC) or len(view) < NONCE_BYTES + 16:
        raise EncryptionError(f"{where}: not an encrypted toon-memory file (truncated?)")
    try:
        opened: bytes = key._aead().decrypt(
            bytes(view[:NONCE_BYTES]), view[NONCE_BYTES:], purpose.encode()
        )
        return opened
    except InvalidTag:
        raise EncryptionError(
            f"{where}: fails authentication: it was changed, or TOON_MEMORY_KEY is not the "
            "passphrase it was written with; nothing was changed"
        ) from None


def seal_line(key: Key, plaintext: bytes, purpose: str) -> bytes:
    """One sealed line: ``~<length>:`` + base64(nonce + ciphertext) + newline.

    The length tells a torn line (damage, set aside) from a changed one (refused).
    """
    text = base64.b64encode(seal(key, plaintext, purpose)[len(MAGIC) :])
    return LINE_MARK + str(len(text)).encode() + b":" + text + b"\n"


def is_sealed_line(line: bytes) -> bool:
    return line.startswith(LINE_MARK)


def open_line(key: Key, line: bytes, purpose: str, where: str) -> bytes | None:
    """The plaintext of a sealed line; None when it is not well formed (damage, a torn line).

    A well-formed line that fails authentication raises ``EncryptionError``.
    """
    length, _, text = line[len(LINE_MARK) :].strip().partition(b":")
    if not length.isdigit() or int(length) != len(text):
        return None
    try:
        body = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        return None
    if len(body) < NONCE_BYTES + 16:
        return None
    return open_sealed(key, MAGIC + body, purpose, where)
