"""``curation.observations``: observations grouped in time order, each directly similar to its
group's first one; a group shows its longest text and every session, agent and branch."""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import given
from hypothesis import strategies as st

from toon_memory.rules.curation.observations import (
    MergedObservation,
    merge_observations,
    observation_draft,
    observation_key,
)
from toon_memory.rules.curation.similarity import DUPLICATE_JACCARD, jaccard, term_set


@dataclass(frozen=True)
class Obs:
    session: str
    text: str
    at: str
    agent: str = ""
    branch: str = ""


def test_similar_observations_merge_and_show_the_longest_text() -> None:
    merged = merge_observations([
        Obs("s2", "parser cache invalidation broken after reload", "2026-07-15T10:05:00Z",
            "codex", "feat"),
        Obs("s1", "parser cache invalidation broken", "2026-07-15T10:00:00Z", "claude", "main"),
        Obs("s3", "deploy script needs docker login", "2026-07-15T10:10:00Z", "claude", "main"),
        Obs("s1", "   ", "2026-07-15T10:20:00Z"),
    ])  # fmt: skip
    assert len(merged) == 2
    first, second = merged
    assert first.text == "parser cache invalidation broken after reload"
    assert (first.sessions, first.agents, first.branches) == (("s1", "s2"), ("claude", "codex"),
                                                               ("main", "feat"))  # fmt: skip
    assert (first.count, first.first_at, first.last_at) == (2, "2026-07-15T10:00:00Z",
                                                             "2026-07-15T10:05:00Z")  # fmt: skip
    assert second.sessions == ("s3",) and second.count == 1
    assert first.to_dict()["sessions"] == ["s1", "s2"]


def test_texts_without_terms_merge_only_when_equal() -> None:
    merged = merge_observations([Obs("a", "the and", "1"), Obs("b", " the  and ", "2"),
                                 Obs("c", "of the", "3")])  # fmt: skip
    assert [m.count for m in merged] == [2, 1]


WORDS = st.lists(st.sampled_from(["cache", "parser", "deploy", "docker", "token", "index",
                                  "bucket", "schema", "lint"]), min_size=1, max_size=5)  # fmt: skip


@given(st.lists(st.tuples(st.sampled_from("abc"), WORDS, st.integers(0, 50)), max_size=10))
def test_every_member_is_directly_similar_to_its_groups_first(
    rows: list[tuple[str, list[str], int]],
) -> None:
    observations = [Obs(s, " ".join(words), f"{at:03d}") for s, words, at in rows]
    merged = merge_observations(observations)
    assert sum(m.count for m in merged) == len(observations)
    ordered = sorted(observations, key=lambda o: (o.at, o.session, o.text))
    cursor = 0
    firsts = [m.first_at for m in merged]
    assert firsts == sorted(firsts)
    for group in merged:
        assert group.text in {" ".join(o.text.split()) for o in observations}
        cursor += group.count
    assert cursor == len(ordered)
    seeds: list[frozenset[str]] = []
    for item in ordered:  # replay: each item joins the first similar seed, or seeds a group
        terms = term_set(item.text)
        if not any(jaccard(seed, terms) > DUPLICATE_JACCARD for seed in seeds):
            seeds.append(terms)
    assert len(seeds) == len(merged)


def test_observation_key_is_kebab_case_from_the_file_stem_and_first_words() -> None:
    assert (
        observation_key("src/Parser.PY", "Cache is broken, again!")
        == "parser-cache-is-broken-again"
    )
    assert observation_key("a\\b\\deploy.sh", "x") == "deploy-x"
    assert observation_key("", "!!!") == "session-observation"
    long = observation_key("f.py", " ".join(["word"] * 20))
    assert len(long) <= 60 and long.count("-") == 7


def test_observation_draft_confidence_grows_with_sessions() -> None:
    one = MergedObservation("Cache broken", ("s1",), (), (), 1, "1", "1")
    two = MergedObservation("Cache broken", ("s1", "s2"), (), (), 2, "1", "2")
    draft = observation_draft("src/cache.py", one)
    assert draft == {"category": "knowledge", "key": "cache-cache-broken",
                     "content": "Cache broken", "file": "src/cache.py",
                     "tags": ["session-merge"], "origin": "inferred", "confidence": 0.65}  # fmt: skip
    assert observation_draft("src/cache.py", two)["confidence"] == 0.75
