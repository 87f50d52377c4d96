"""``memory_compress``: the prompt that asks for a summary of an entry, and the summary check.

Invariant: the prompt holds the entry's category, key, tags, file and whole
content and asks for the summary alone, so an agent or a CLI can answer it
without more context; a summary is accepted only if it is non-blank and
shorter than ``MAX_SUMMARY_CHARS``. Pure.
"""

from __future__ import annotations

from toon_memory.errors import InputError
from toon_memory.model.entry import Entry

DEFAULT_WORDS = 60
MAX_SUMMARY_CHARS = 4_000


def compress_prompt(entry: Entry, max_words: int = DEFAULT_WORDS) -> str:
    """The instruction and the entry, ready to hand to an LLM."""
    lines = [
        f"Summarise this project memory entry in at most {max_words} words.",
        "Keep every file name, identifier, version, number and the reason behind the fact;",
        "drop filler and repetition. Answer with the summary text only, no preamble.",
        "",
        f"Category: {entry.category}",
        f"Key: {entry.key}",
    ]
    if entry.tags:
        lines.append(f"Tags: {', '.join(entry.tags)}")
    if entry.file:
        lines.append(f"File: {entry.file}")
    lines += ["Content:", entry.content]
    return "\n".join(lines)


def check_summary(summary: object) -> str:
    """A usable summary (whitespace trimmed), or InputError naming ``summary``."""
    text = str(summary or "").strip()
    if not text:
        raise InputError("summary", "must not be empty")
    if len(text) > MAX_SUMMARY_CHARS:
        raise InputError(
            "summary", f"must be at most {MAX_SUMMARY_CHARS} characters, got {len(text)}"
        )
    return text
