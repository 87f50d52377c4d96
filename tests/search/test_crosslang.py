"""Cross-language recall: English queries over entries written in es, pt, fr and de."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from tests.search.builders import entry, recall

from toon_memory.search import Engine, crosslang, lexicon, lexicon_stems
from toon_memory.search.index import BM25Index
from toon_memory.search.tokenize import query_groups


def keys(engine: Engine, query: str, **options: Any) -> list[str]:
    return recall(engine, query, **options).keys


def _team_notes() -> Engine:
    """Keys that say nothing: only the content can match."""
    return Engine.build([
        entry("n1", "La factura se emite el primer día de cada mes con el IVA del país."),
        entry("n2", "Os registos da aplicação são guardados durante trinta dias."),
        entry("n3", "Mots de passe du personnel : douze caractères au minimum."),
        entry("n4", "Die Datenbank wird jede Nacht gesichert; keine Migrationen um 02:00."),
        entry("n5", "Deploys need a manual approval in Argo CD."),
    ])  # fmt: skip


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("when is the invoice issued", "n1"),  # es: factura
        ("how long are logs kept", "n2"),  # pt: registos, guardados
        ("staff password length", "n3"),  # fr: mots de passe, personnel
        ("nightly database backup", "n4"),  # de: Datenbank, Nacht, gesichert
    ],
)
def test_an_english_query_finds_a_note_in_another_language(query: str, expected: str) -> None:
    engine = _team_notes()
    assert keys(engine, query)[0] == expected


def test_without_translations_those_notes_are_missed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(crosslang, "TRANSLATION_WEIGHT", 0.0)
    engine = _team_notes()
    assert "n1" not in keys(engine, "when is the invoice issued")
    assert "n2" not in keys(engine, "how long are logs kept")


def test_the_word_itself_outranks_its_translation() -> None:
    engine = Engine.build([
        entry("es-note", "Cada factura lleva un número correlativo."),
        entry("en-note", "Every invoice carries a running number."),
    ])  # fmt: skip
    assert keys(engine, "invoice number") == ["en-note", "es-note"]


def test_a_spanish_query_finds_an_english_note() -> None:
    engine = Engine.build([
        entry("a", "Invoices are sent on the first day of the month."),
        entry("b", "The cache keeps tracking pages for 90 seconds."),
    ])  # fmt: skip
    assert keys(engine, "¿cuándo se envían las facturas?")[0] == "a"


def test_expand_adds_weighted_translations_and_keeps_the_groups() -> None:
    groups = query_groups("database invoice")
    expanded, weights = crosslang.expand(groups, "en")
    assert [g[: len(o)] for g, o in zip(expanded, groups, strict=True)] == groups
    assert {"datenbank", "factur"} <= set(expanded[0]) | set(expanded[1])
    assert all(w == crosslang.TRANSLATION_WEIGHT for ws in weights for w in ws.values())
    assert not set(groups[0]) & set(weights[0])


def test_group_weights_scale_a_terms_score() -> None:
    index = BM25Index({"content": 1.0})
    index.add("a", {"content": ["factur", "mes"]})
    index.add("b", {"content": ["invoic", "month"]})
    plain = index.score([("invoic", "factur")])
    weighted = index.score([("invoic", "factur")], [{"factur": 0.5}])
    assert weighted["b"] == pytest.approx(plain["b"])
    assert weighted["a"] == pytest.approx(plain["a"] * 0.5)


def test_lexicon_rows_have_five_languages() -> None:
    for line in lexicon.CONCEPTS.splitlines():
        cells = line.split("|")
        assert len(cells) == 5, line
        assert all(cell.split() for cell in cells), line


def test_lexicon_stems_module_is_current() -> None:
    path = Path(lexicon_stems.__file__)
    assert path.read_text(encoding="utf-8") == lexicon.render(), (
        "regenerate: python -c 'from toon_memory.search.lexicon import render; "
        f'print(render(), end="")\' > {path}'
    )


def test_lookups_are_symmetric() -> None:
    concepts = [c for c in lexicon.concepts_of("invoic", "en") if "rechnung" in lexicon.terms_of(c)]
    assert concepts
    for concept in concepts:
        assert concept in lexicon.concepts_of("rechnung", "de")
        assert concept in lexicon.concepts_of("factur", "es")


def test_a_german_participle_answers_the_english_verb() -> None:
    """The German stemmer leaves ``aufbewahrt`` and ``erfasst`` whole; the lexicon asks for them."""
    engine = Engine.build([
        entry("log-retention", "Logs werden 30 Tage in Loki aufbewahrt."),
        entry("log-format", "Logs are JSON lines with a trace id."),
        entry("error-tracking", "Fehler im Backend werden mit Sentry erfasst."),
        entry("backend-stack", "The backend is FastAPI."),
    ])  # fmt: skip
    assert keys(engine, "how long do we keep logs")[0] == "log-retention"
    assert keys(engine, "which tool captures backend errors")[0] == "error-tracking"


def test_german_participles_of_the_lexicon() -> None:
    assert lexicon._german_participles("aufbewahren") == ["aufbewahrt", "geaufbewahrt"]
    assert lexicon._german_participles("erfassen") == ["erfasst"]
    assert lexicon._german_participles("speichern") == ["speichert", "gespeichert"]
    assert lexicon._german_participles("senden") == ["sendet", "gesendet"]
    assert lexicon._german_participles("Abc") == []


def test_place_and_language_names_cross_languages() -> None:
    engine = Engine.build([
        entry("support-pt", "O suporte é feito pela equipa de Lisboa, das 9h às 18h."),
        entry("support-es", "El soporte se hace desde Madrid."),
        entry("style", "Convención: comentarios en español o en inglés."),
    ])  # fmt: skip
    assert keys(engine, "support team in Lisbon")[0] == "support-pt"
    assert keys(engine, "comments in Spanish")[0] == "style"


def test_month_names_are_not_translated() -> None:
    """ "may" is a modal verb too: month names are dates for ``search.intent``, not concepts."""
    groups, _ = crosslang.expand(query_groups("may I drop old partitions"), "en")
    assert not any("mayo" in group or "mai" in group for group in groups)
