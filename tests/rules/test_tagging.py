"""``rules.tagging`` called directly: inferred tags come from the vocabularies only."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from toon_memory.rules.tagging import BUILTIN_VOCAB, infer_tags, words_of


def test_words_are_split_on_dots_dashes_and_underscores() -> None:
    assert {"redis", "cache", "redis.cache", "my_var", "my", "var"} <= words_of(
        "Redis.Cache my_var"
    )


def test_project_vocabulary_comes_first_and_the_limit_holds() -> None:
    tags = infer_tags("redis login timeout with stripe", {"billing": ["stripe"]}, limit=3)
    assert tags == ["billing", "redis", "auth"]


@given(st.text(max_size=200), st.integers(0, 8))
def test_inference_is_deterministic_and_never_invents_a_tag(text: str, limit: int) -> None:
    vocab = {"orders": ["parcel"]}
    tags = infer_tags(text, vocab, limit)
    assert tags == infer_tags(text, vocab, limit)
    assert len(tags) <= limit and len(set(tags)) == len(tags)
    assert set(tags) <= set(BUILTIN_VOCAB) | set(vocab)
