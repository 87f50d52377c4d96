"""The project vocabulary: dependency names read from the project's manifests.

Invariant: reading a manifest never fails the caller; unreadable or odd
files are skipped. Returns tag -> signal words for ``tagging.infer_tags``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

MAX_TERMS = 200
_REQ_NAME = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)")


def _package_json(text: str) -> list[str]:
    data = json.loads(text)
    names: list[str] = []
    for section in ("dependencies", "devDependencies", "peerDependencies"):
        block = data.get(section) or {}
        if isinstance(block, dict):
            names.extend(block)
    return names


def _requirements(text: str) -> list[str]:
    out = []
    for line in text.splitlines():
        if line.strip().startswith(("#", "-")):
            continue
        match = _REQ_NAME.match(line)
        if match:
            out.append(match.group(1))
    return out


def _pyproject(text: str) -> list[str]:
    block = re.search(r"(?ms)^dependencies\s*=\s*\[(.*?)\]", text)
    items = re.findall(r"[\"']([^\"']+)[\"']", block.group(1)) if block else []
    return [m.group(1) for m in (_REQ_NAME.match(i) for i in items) if m]


def _cargo(text: str) -> list[str]:
    block = re.search(r"(?ms)^\[dependencies\]\s*$(.*?)(^\[|\Z)", text)
    return re.findall(r"(?m)^([A-Za-z0-9_-]+)\s*=", block.group(1)) if block else []


def _go_mod(text: str) -> list[str]:
    return [
        path.rsplit("/", 1)[-1]
        for path in re.findall(r"(?m)^\s*(?:require\s+)?([\w.-]+/[\w./-]+)\s+v", text)
    ]


READERS = {
    "package.json": _package_json,
    "requirements.txt": _requirements,
    "pyproject.toml": _pyproject,
    "Cargo.toml": _cargo,
    "go.mod": _go_mod,
}


def _tag_of(name: str) -> str:
    base = name.lower().lstrip("@").split("/")[-1]
    return re.sub(r"[^a-z0-9.+-]", "-", base).strip("-")


def scan_vocab(root: Path) -> dict[str, list[str]]:
    """Dependency names from the manifests at ``root``, as tag -> [signal word]."""
    vocab: dict[str, list[str]] = {}
    for filename, reader in READERS.items():
        try:
            names = reader((root / filename).read_text(encoding="utf-8"))
        except (OSError, ValueError, UnicodeDecodeError, AttributeError):
            continue
        for name in names:
            tag = _tag_of(name)
            if tag and len(tag) > 1 and tag not in vocab and len(vocab) < MAX_TERMS:
                vocab[tag] = [tag]
    return vocab
