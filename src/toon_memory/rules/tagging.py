"""Tags inferred from content: a built-in vocabulary plus the project's own.

Invariant: inference is deterministic (same text and vocabulary, same tags
in the same order) and never invents a tag outside the vocabularies. No I/O.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

#: tag -> words that signal it (matched as whole, lower-cased words or word prefixes).
BUILTIN_VOCAB: dict[str, tuple[str, ...]] = {
    "redis": ("redis",),
    "auth": ("auth", "authentication", "login", "logout", "oauth", "jwt", "session", "password"),
    "api": ("api", "endpoint", "rest", "graphql", "route", "http"),
    "db": ("database", "db", "sql", "postgres", "mysql", "sqlite", "mongo", "query", "migration"),
    "security": ("security", "xss", "csrf", "injection", "vulnerability", "secret", "encrypt"),
    "test": ("test", "tests", "testing", "pytest", "jest", "vitest", "spec", "mock"),
    "deploy": ("deploy", "deployment", "release", "docker", "kubernetes", "ci", "pipeline"),
    "config": ("config", "configuration", "env", "settings", "dotenv"),
    "performance": ("performance", "slow", "latency", "cache", "optimize", "speed", "memory"),
    "refactor": ("refactor", "refactoring", "cleanup", "rename", "restructure"),
    "error": ("error", "exception", "crash", "bug", "failure", "fail", "timeout"),
    "logging": ("log", "logging", "logger", "trace", "tracing", "metrics"),
    "types": ("type", "types", "typescript", "typing", "mypy", "schema", "zod"),
    "async": ("async", "await", "promise", "concurrency", "thread", "race"),
    "state": ("state", "redux", "store", "zustand", "context"),
    "ui": ("ui", "css", "component", "layout", "button", "frontend", "react", "style"),
    "storage": ("storage", "s3", "file", "upload", "bucket", "disk"),
    "email": ("email", "smtp", "mail", "newsletter"),
    "payment": ("payment", "stripe", "billing", "invoice", "checkout"),
    "webhook": ("webhook", "webhooks", "callback"),
}

_WORD = re.compile(r"[a-z0-9][a-z0-9_+.-]*")


def words_of(text: str) -> set[str]:
    """Lower-cased words of ``text``, also split on ``.``, ``-`` and ``_``."""
    found: set[str] = set()
    for word in _WORD.findall(text.lower()):
        found.add(word)
        found.update(part for part in re.split(r"[._-]", word) if part)
    return found


def infer_tags(
    text: str, project_vocab: Mapping[str, Sequence[str]] | None = None, limit: int = 5
) -> list[str]:
    """Tags whose signal words occur in ``text`` (project vocabulary first)."""
    words = words_of(text)
    tags: list[str] = []
    for vocab in (project_vocab or {}, BUILTIN_VOCAB):
        for tag, signals in vocab.items():
            if tag not in tags and any(signal.lower() in words for signal in signals):
                tags.append(tag)
    return tags[:limit]
