"""Security (``memory.security``): encryption at rest and the secrets vault.

Invariant: ``encrypt``/``decrypt`` convert every file of the memory that holds
entry text (``store.encrypting``) under the store lock, and a memory already
in the asked state, a missing or a wrong key raises ``EncryptionError`` with
nothing written. ``secret`` keeps values only in the sealed vault
(``store.vault``); a result carries a value only for ``action="get"``, and no
error ever repeats one. The passphrase comes from ``TOON_MEMORY_KEY`` and is
never written. Arguments are checked before any file is touched.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from toon_memory.errors import InputError
from toon_memory.model.checks import check_choice
from toon_memory.model.clock import today
from toon_memory.model.entry import SECRET_ACTIONS
from toon_memory.store.sealing import Conversion
from toon_memory.store.store import Store


@dataclass(frozen=True)
class SecretResult:
    """What a vault action did. ``value`` is set only by ``get``."""

    action: str
    name: str = ""
    value: str | None = None
    replaced: bool = False
    names: tuple[tuple[str, str], ...] = field(default_factory=tuple)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"action": self.action}
        if self.action == "list":
            data["secrets"] = [{"name": n, "updated": d} for n, d in self.names]
        else:
            data["name"] = self.name
        if self.action == "store":
            data["replaced"] = self.replaced
        if self.value is not None:
            data["value"] = self.value
        return data


class Security:
    """Encrypt or decrypt a memory; keep secrets out of it."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def encrypted(self) -> bool:
        """Are this memory's files encrypted?"""
        return self.store.encrypted()

    def encrypt(self) -> Conversion:
        """Encrypt data.toon, journal, archive, backups and caches with ``TOON_MEMORY_KEY``."""
        from toon_memory.store.sealing import encrypt_folder

        return encrypt_folder(self.store)

    def decrypt(self) -> Conversion:
        """Write an encrypted memory in clear again (needs ``TOON_MEMORY_KEY``)."""
        from toon_memory.store.sealing import decrypt_folder

        return decrypt_folder(self.store)

    def secret(self, action: str, name: str = "", value: str = "") -> SecretResult:
        """``store`` a value under a name, ``get`` it, ``list`` names, ``forget`` one."""
        from toon_memory.store.vault import Vault, check_name, check_value

        action = check_choice(action, "action", SECRET_ACTIONS)
        if action != "list":
            check_name(name)
        if action == "store":
            check_value(value)
        elif value:
            raise InputError("value", f"is only taken by action=store, not {action}")
        vault = Vault(self.store.paths.folder, self.store.lock)
        if action == "store":
            self.store.ensure_folder()
            replaced = vault.store(name, value, today().isoformat())
            return SecretResult("store", name, replaced=replaced)
        if action == "get":
            return SecretResult("get", name, value=vault.get(name).value)
        if action == "forget":
            vault.forget(name)
            return SecretResult("forget", name)
        if not (self.store.paths.folder / "secrets.toon").exists():
            return SecretResult("list")
        return SecretResult("list", names=tuple((s.name, s.updated) for s in vault.names()))

    def refuse_if_encrypted(self, what: str) -> None:
        """Raise ``EncryptionError`` when this memory is encrypted: ``what`` (a Gist export,
        a copy to a plain global memory) would take its entries out in clear."""
        from toon_memory.errors import EncryptionError

        if self.store.encrypted():
            raise EncryptionError(
                f"this memory is encrypted; {what} would put its entries in clear outside it. "
                "Run `toon-memory decrypt` first if that is what you want; nothing was sent"
            )
