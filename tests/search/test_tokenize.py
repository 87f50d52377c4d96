from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from toon_memory.search.tokenize import (
    detect_language,
    document_terms,
    fold,
    query_groups,
    script_family,
    words,
)


def test_identifiers_are_split() -> None:
    assert words("getUserById") == ["get", "user", "by", "id", "getuserbyid"]
    assert words("HTTPServer") == ["http", "server", "httpserver"]
    assert words("snake_case kebab-case dotted.name") == [
        "snake", "case", "kebab", "case", "dotted", "name",
    ]  # fmt: skip
    assert words("src/lib/graph.ts") == ["src", "lib", "graph", "ts"]


def test_case_and_accents_fold() -> None:
    assert fold("Ação") == "acao"
    assert fold("NIÑO") == "nino"
    assert fold("Straße") == "strasse"


def test_stemming_matches_inflections() -> None:
    assert document_terms("connections", "en") == document_terms("connection", "en")
    assert set(document_terms("conexiones", "es")) & set(document_terms("conexión", "es"))
    assert set(document_terms("configurações", "pt")) & set(document_terms("configuração", "pt"))


def test_stopwords_dropped_per_language() -> None:
    assert document_terms("the pool of the redis", "en") == document_terms("pool redis", "en")
    assert "die" in " ".join(document_terms("never die", "en"))
    assert document_terms("die Datenbank", "de") == document_terms("Datenbank", "de")


def test_language_detection() -> None:
    assert detect_language("La conexión con la base de datos falla en producción") == "es"
    assert detect_language("A configuração não está correta para o servidor") == "pt"
    assert detect_language("Die Datenbank ist nicht erreichbar und der Server") == "de"
    assert detect_language("Le serveur est dans une boucle avec les clients") == "fr"
    assert detect_language("The server is not reachable") == "en"
    assert detect_language("") == "en"


def test_spanish_text_also_indexes_english_stems() -> None:
    # Spanish prose with English identifiers: an English query still matches.
    doc = set(document_terms("Usamos connection pooling en el cliente", "es"))
    for group in query_groups("connection pool"):
        assert doc & set(group)


def test_cjk_bigrams() -> None:
    assert document_terms("缓存配置") == ["缓存", "存配", "配置"]
    assert document_terms("库") == ["库"]
    assert document_terms("Redis缓存")[-1] == "缓存"


def test_script_family() -> None:
    assert script_family("hello world") == "latin"
    assert script_family("缓存配置 redis") == "cjk"
    assert script_family("Привет мир") == "cyrillic"
    assert script_family("123 !!") == ""


def test_query_groups_are_deduplicated() -> None:
    assert query_groups("redis redis Redis") == [("redi",)]


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_tokenize_never_crashes_and_is_deterministic(text: str) -> None:
    first = document_terms(text)
    assert first == document_terms(text)
    assert all(isinstance(t, str) and t for t in first)
    assert query_groups(text) == query_groups(text)
    assert isinstance(script_family(text), str)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(categories=["L", "N", "P", "Zs"]), max_size=60))
def test_every_query_word_matches_its_own_document(text: str) -> None:
    doc = set(document_terms(text))
    for group in query_groups(text):
        assert doc & set(group)


def test_stemmer_is_loaded_on_first_use_not_on_import() -> None:
    """Import cost and speed are measured by ``benchmarks.retrieval.tokenizer``, not here."""
    import subprocess
    import sys

    code = (
        "import sys, toon_memory.search.tokenize as t; print('Stemmer' in sys.modules);"
        "t.document_terms('running tests'); print('Stemmer' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "True"]
