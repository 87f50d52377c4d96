"""German compounds for the index: ``Speicherlimit`` also indexes ``speicher`` and ``limit``.

Invariant: ``parts`` is a pure, deterministic function of one folded word
that never raises; it returns ``()`` or exactly two parts of at least
``MIN_PART`` letters whose concatenation, with at most one linking element
(``s``, ``es``, ``n``, ``en``) between them, is the word, and at least one
part is a word of the lexicon (``search.lexicon``, any of its languages).
A known word is never split, nor a word over ``MAX_WORD`` letters. Preference: both parts known (``kundenschlüssel``
-> ``kunde`` + ``schlussel``), else the longest known head of 5+ letters
(``speicherlimit``), else a known tail of 5+ letters (``sendungsnummer`` ->
``sendung`` + ``nummer``).

Why: German writes compounds as one word, so an English query about the
memory limit would not reach "Speicherlimit" through the lexicon's
``speicher`` alone. Both sides split: the index keeps the whole word and adds
the parts' stems; a German query asks for the whole word and for each part as
a group of its own (``Zugriffstoken`` finds "access tokens"). No I/O.
"""

from __future__ import annotations

from functools import cache

MIN_PART = 4
#: Longer words are not split (German's longest real compounds are about 60 letters); keeps
#: the work per word bounded, whatever a text holds.
MAX_WORD = 64
LINKS: tuple[str, ...] = ("es", "en", "s", "n")


@cache
def _known() -> frozenset[str]:
    from toon_memory.search.lexicon_stems import WORDS

    return frozenset(WORDS)


def parts(word: str) -> tuple[str, ...]:
    """The head and tail of compound ``word`` (folded, lower case), or ``()``."""
    if not 2 * MIN_PART <= len(word) <= MAX_WORD or not word.isalpha():
        return ()
    known = _known()
    if word in known:
        return ()
    cuts = range(len(word) - MIN_PART, MIN_PART - 1, -1)  # longest head first
    heads = {cut: _known_head(word[:cut], known) for cut in cuts}
    for cut in cuts:  # both parts known
        if heads[cut] and word[cut:] in known:
            return heads[cut], word[cut:]
    for cut in cuts:  # a known head of 5+ letters
        if len(heads[cut]) > MIN_PART:
            return heads[cut], word[cut:]
    for cut in reversed(cuts):  # a known tail of 5+ letters
        if len(word) - cut > MIN_PART and word[cut:] in known:
            return _without_link(word[:cut])[-1], word[cut:]
    return ()


def _known_head(head: str, known: frozenset[str]) -> str:
    return next((bare for bare in _without_link(head) if bare in known), "")


def _without_link(head: str) -> tuple[str, ...]:
    """``head`` itself, then ``head`` without a linking element, keeping ``MIN_PART`` letters."""
    found = [head]
    for link in LINKS:
        if head.endswith(link) and len(head) - len(link) >= MIN_PART:
            found.append(head[: -len(link)])
    return tuple(found)
