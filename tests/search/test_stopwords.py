"""``search.stopwords``: every list is accent- and case-folded, and ``guess_language`` only
ever answers one of ``LANGUAGES`` ("en" when unsure)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from toon_memory.search.stopwords import LANGUAGES, STOPWORDS, guess_language
from toon_memory.search.tokenize import fold


def test_every_list_is_folded() -> None:
    assert set(STOPWORDS) == set(LANGUAGES)
    for lang, words in STOPWORDS.items():
        assert words, lang
        for word in words:
            assert fold(word) == word == word.casefold(), (lang, word)


def test_guesses() -> None:
    assert guess_language(["el", "servidor", "y", "los", "datos", "para", "la", "base"]) == "es"
    assert guess_language(["nao", "uma", "voce", "com", "isso"]) == "pt"
    assert guess_language(["les", "donnees", "dans", "une", "base", "avec", "nous"]) == "fr"
    assert guess_language(["der", "server", "und", "die", "datenbank", "ist", "nicht"]) == "de"
    assert guess_language(["the", "server", "and", "the", "database"]) == "en"


def test_unsure_is_english_and_accents_vote() -> None:
    assert guess_language([]) == "en" and guess_language(["kubernetes", "helm"]) == "en"
    assert guess_language(["strasse"], "Straße") == "de"
    assert guess_language(["manana"], "mañana") == "es"


@given(st.lists(st.text(max_size=8), max_size=12), st.text(max_size=30))
def test_always_one_of_the_languages(words: list[str], raw: str) -> None:
    assert guess_language(words, raw) in LANGUAGES
    assert guess_language(words, raw) == guess_language(list(words), raw)
