"""Unicode-aware tokenizer: identifiers split, case and accents folded, words stemmed.

Invariant: ``document_terms`` and ``query_groups`` are deterministic, pure
functions of their input that never raise on any ``str``; a word written the
same way yields the same term on both sides, whatever the text's language.
Every query group shares at least one term with the document side of the
same word (a document in language L indexes the L stem and the English
stem; a query word in language L asks for either).

Splitting rules: runs of letters/digits are cut at ``_ - . / :`` and every
other non-word character (snake_case, kebab-case, dotted names, paths), then
at camelCase humps (``getUserById`` -> get user by id, plus the joined
``getuserbyid``). CJK runs (Han, kana, Hangul) become overlapping character
bigrams. Latin words are stemmed with Snowball (PyStemmer, imported lazily so
importing this module stays cheap) in the language guessed for the text;
Cyrillic and Greek words with the Russian and Greek stemmers.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache, lru_cache
from typing import Any

from toon_memory.search.stopwords import QUERY_FILLER, STOPWORDS, guess_language

_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af\u3131-\u318e"
_UPPER = "A-ZÀ-ÖØ-ÞА-ЯЁΑ-Ω"
_LOWER = "a-zß-öø-ÿа-яёα-ω"
_PATTERNS: dict[str, str] = {
    "run": rf"[{_CJK}]+|[^\W_{_CJK}]+",
    "cjk": rf"[{_CJK}]",
    "hump": rf"[{_UPPER}]+(?=[{_UPPER}][{_LOWER}])|[{_UPPER}]?[{_LOWER}]+|[{_UPPER}]+|\d+"
    rf"|[^{_UPPER}{_LOWER}\d]+",
    "cyrillic": r"[\u0400-\u04ff]",
    "greek": r"[\u0370-\u03ff]",
    "arabic": r"[\u0600-\u06ff]",
    "hebrew": r"[\u0590-\u05ff]",
    "devanagari": r"[\u0900-\u097f]",
    "thai": r"[\u0e00-\u0e7f]",
    "latin": r"[A-Za-z\u00c0-\u024f]",
}


@cache
def _re(name: str) -> re.Pattern[str]:
    """Compiled on first use: compiling the Unicode classes costs milliseconds at import."""
    return re.compile(_PATTERNS[name])


#: Distinct words each per-word cache keeps: a text's frequent words hit, and a rebuild
#: of 100,000 entries of rare words holds ~20 MB in them, not ~75 MB.
WORD_CACHE = 32768

_SNOWBALL = {
    "en": "english", "es": "spanish", "pt": "portuguese", "fr": "french", "de": "german",
    "ru": "russian", "el": "greek",
}  # fmt: skip
_stemmers: dict[str, Any] = {}


def _stemmer(lang: str) -> Any:
    stemmer = _stemmers.get(lang)
    if stemmer is None:
        import Stemmer  # type: ignore[import-not-found]  # PyStemmer, C extension

        stemmer = Stemmer.Stemmer(_SNOWBALL[lang])
        _stemmers[lang] = stemmer
    return stemmer


def _lower(text: str) -> str:
    """``text`` case-folded; the same string object when it is so already (a cache holds
    it once, not twice)."""
    lowered = text.casefold()
    return text if lowered == text else lowered


@lru_cache(maxsize=WORD_CACHE)
def fold(word: str) -> str:
    """Case-folded, accent-stripped form of ``word`` (``"Ação"`` -> ``"acao"``)."""
    lowered = _lower(word)
    if lowered.isascii():
        return lowered
    decomposed = unicodedata.normalize("NFKD", lowered)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _split_humps(run: str) -> list[str]:
    if run.islower() or run.isupper() or run.isdigit() or len(run) < 3:
        return [run]
    parts = _re("hump").findall(run)
    return parts if len(parts) > 1 else [run]


@lru_cache(maxsize=WORD_CACHE)
def _run_words(run: str) -> tuple[str, ...]:
    if _re("cjk").match(run):
        return (run,)
    parts = _split_humps(run)
    out = [_lower(part) for part in parts]
    if len(parts) > 1:
        out.append(_lower(run))
    return tuple(out)


def words(text: str) -> list[str]:
    """The case-folded words of ``text`` (identifiers split, CJK runs whole), in order.

    Accents are kept here: the Snowball stemmers need them; terms are
    accent-folded after stemming.
    """
    out: list[str] = []
    for run in _re("run").findall(text):
        out.extend(_run_words(run))
    return out


#: How much of a text the language guess reads.
LANGUAGE_SAMPLE = 2000


def detect_language(text: str, known: list[str] | None = None) -> str:
    """A cheap guess of the text's language among en/es/pt/fr/de (``"en"`` when unsure).

    ``known``: ``words(text)`` when the caller has them already (only used when the
    whole text is the sample, so the guess is the same either way)."""
    sample = text[:LANGUAGE_SAMPLE]
    found = known if known is not None and len(text) <= LANGUAGE_SAMPLE else words(sample)
    return guess_language(map(fold, found), sample.casefold())


def _cjk_bigrams(run: str) -> list[str]:
    if len(run) == 1:
        return [run]
    return [run[i : i + 2] for i in range(len(run) - 1)]


@lru_cache(maxsize=WORD_CACHE)
def _stems(word: str, lang: str) -> tuple[str, ...]:
    """The accent-folded stems of one case-folded non-CJK word: ``lang``'s, then English's."""
    if word.isdigit():
        return (word,)
    bare = fold(word)
    if not word.isascii():
        if _re("cyrillic").search(word):
            return (fold(_stemmer("ru").stemWord(word)),)
        if _re("greek").search(word):
            return (fold(_stemmer("el").stemWord(word)),)
    first = fold(_stemmer(lang).stemWord(word))
    english = _stemmer("en").stemWord(bare)
    if english == first:
        return (first,)
    return (english,) if lang == "en" else (first, english)


def stems_of(word: str, lang: str) -> tuple[str, ...]:
    """The terms one word of language ``lang`` indexes as (its stems, accent-folded)."""
    return _stems(word.casefold(), lang)


def _is_stop(word: str, lang: str) -> bool:
    if len(word) < 2 and not word.isdigit():
        return True
    word = fold(word)
    return word in STOPWORDS[lang] or (lang != "en" and word in STOPWORDS["en"])


@lru_cache(maxsize=WORD_CACHE)
def _word_groups(word: str, lang: str) -> tuple[tuple[str, ...], ...]:
    """The term groups of one word: CJK bigrams, nothing for a stopword, else its stems."""
    if _re("cjk").match(word):
        return tuple((gram,) for gram in _cjk_bigrams(word))
    if _is_stop(word, lang):
        return ()
    return (_stems(word, lang),)


def forget_words() -> None:
    """Empty the per-word caches: a pass over a whole memory fills them with rare words
    no later call asks for (~20 MB at 100,000 entries); frequent words come back at once."""
    for cached in (fold, _run_words, _stems, _word_groups, _compound_groups):
        cached.cache_clear()


def document_terms(text: str, lang: str | None = None) -> list[str]:
    """Index terms of ``text``: every alternative stem of every kept word, and in German
    text the stems of a compound's parts too (``search.compounds``)."""
    found = words(text)
    return terms_of_words(found, lang or detect_language(text, found))


def terms_of_words(found: list[str], lang: str) -> list[str]:
    """``document_terms`` of a text whose ``words`` are ``found`` and language ``lang``."""
    return [term for word in found for group in _groups_with_parts(word, lang)
            for term in group]  # fmt: skip


def _groups_with_parts(word: str, lang: str) -> tuple[tuple[str, ...], ...]:
    """The word's groups, then (a kept German word of 8+ letters) one per compound part."""
    groups = _word_groups(word, lang)
    if lang == "de" and len(word) >= 8 and groups:
        return groups + _compound_groups(word)
    return groups


@lru_cache(maxsize=65536)
def _compound_groups(word: str) -> tuple[tuple[str, ...], ...]:
    """One group per part of a German compound (``search.compounds``), or none."""
    from toon_memory.search.compounds import parts

    return tuple(_stems(part, "de") for part in parts(fold(word)))


def query_groups(text: str) -> list[tuple[str, ...]]:
    """Query terms grouped per word, duplicates removed, order kept.

    Question filler (``QUERY_FILLER``: "what *kind* of", "how *often*") is
    dropped unless nothing else would remain. A German compound also asks for
    its parts, each as a group of its own (``Zugriffstoken``: zugriff, token).
    """
    lang = detect_language(text)
    seen: set[tuple[str, ...]] = set()
    out: list[tuple[str, ...]] = []
    filler: list[tuple[str, ...]] = []
    for word in words(text):
        for group in _groups_with_parts(word, lang):
            if group not in seen:
                seen.add(group)
                folded = fold(word)
                is_filler = folded in QUERY_FILLER["en"] or folded in QUERY_FILLER[lang]
                (filler if is_filler else out).append(group)
    return out or filler


_SCRIPTS: tuple[str, ...] = ("cjk", "cyrillic", "greek", "arabic", "hebrew", "devanagari", "thai")


def script_family(text: str) -> str:
    """The dominant writing system of ``text``: latin, cjk, cyrillic, …; ``""`` if none."""
    sample = text[:1000]
    if sample.isascii():  # no letter of another script: Latin when there is a letter at all
        return "latin" if _re("latin").search(sample) else ""
    best, best_count = "", 0
    latin = len(_re("latin").findall(sample))
    if latin:
        best, best_count = "latin", latin
    for name in _SCRIPTS:
        count = len(_re(name).findall(sample)) * (2 if name == "cjk" else 1)
        if count > best_count:
            best, best_count = name, count
    return best
