"""``search.lexicon``: pure lookups over the precomputed stems of the table; every concept's
stems lead back to that concept, and ``known_words`` is the table's folded 4+ letter words.
(That ``lexicon_stems`` is current, and the cross-language recall itself, are checked in
test_crosslang.py.)"""

from __future__ import annotations

from toon_memory.search.lexicon import LANGS, concepts_of, known_words, terms_of
from toon_memory.search.lexicon_stems import STEMS
from toon_memory.search.lexicon_table import CONCEPTS
from toon_memory.search.tokenize import fold


def test_every_stem_leads_back_to_its_concept() -> None:
    for number, per_lang in enumerate(STEMS):
        assert len(per_lang) == len(LANGS)
        for lang, stems in zip(LANGS, per_lang, strict=True):
            for stem in stems:
                assert number in concepts_of(stem, lang), (number, lang, stem)
                assert stem in terms_of(number)


def test_unknown_stems_and_languages_have_no_concept() -> None:
    assert concepts_of("zzqx", "en") == ()
    assert concepts_of(STEMS[0][0][0], "xx") == ()


def test_known_words_are_the_tables_folded_long_words() -> None:
    words = known_words()
    assert list(words) == sorted(set(words))
    assert all(len(w) >= 4 and fold(w) == w for w in words)
    assert "database" in words and "datenbank" in words and "data" in words
    assert all(len(line.split("|")) == len(LANGS) for line in CONCEPTS.strip().splitlines())
