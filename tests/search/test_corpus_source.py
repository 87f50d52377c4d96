"""``search.corpus_source.CorpusSource``: what the ranker asks of an index kept outside the
process, offered whole by the real one (``store.index_db.IndexDb``), with the same
parameters (a method renamed or re-parameterised on one side only fails here, not in a
query that happens to reach it)."""

from __future__ import annotations

import inspect
from pathlib import Path

from tests.store.test_index_db import _entry, _new_db

from toon_memory.search.corpus import analyse
from toon_memory.search.corpus_source import CorpusSource, LinkRow
from toon_memory.store.index_db import IndexDb


def _asked() -> list[str]:
    return [name for name, value in vars(CorpusSource).items()
            if callable(value) and not name.startswith("_")]  # fmt: skip


def test_the_index_offers_every_method_with_the_same_parameters() -> None:
    asked = _asked()
    assert {"entries_of", "entries_at", "rows_at", "links", "postings"} <= set(asked)
    for name in asked:
        wanted = list(inspect.signature(getattr(CorpusSource, name)).parameters)
        offered = list(inspect.signature(getattr(IndexDb, name)).parameters)
        assert offered == wanted, name


def test_a_link_row_is_what_the_index_answers(tmp_path: Path) -> None:
    db = _new_db(tmp_path)
    with db.writing():
        db.upsert(_entry("k1", ["redis"], [], {}), analyse)
        db.upsert(_entry("k2", ["redis"], ["k1"], {}), analyse)
    first = db.ids_with_key("k1")[0]
    with db.reading():
        rows: list[LinkRow] = db.links(first)
    assert [(other, own) for other, _seq, own, _kind in rows] == [(db.ids_with_key("k2")[0], False)]
    assert all(isinstance(seq, int) and isinstance(kind, str) for _o, seq, _own, kind in rows)
