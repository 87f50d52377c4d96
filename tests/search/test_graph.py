"""``search.graph.LinkGraph``: the adjacency always equals a fresh build from the current
nodes, whatever order nodes were added, replaced and removed in; self-links are ignored."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from toon_memory.search.graph import LinkGraph, content_refs

KEYS = ["a", "b", "c", "d"]
KINDS = ["relates", "supersedes", "superseded_by"]


def adjacency(graph: LinkGraph, nodes: list[str]) -> dict[str, dict[str, str]]:
    return {node: dict(graph.neighbours(node)) for node in sorted(nodes)}


def build(nodes: dict[str, tuple[str, list[tuple[str, str]]]]) -> LinkGraph:
    graph = LinkGraph()
    for node, (key, links) in sorted(nodes.items()):
        graph.add(node, key, links)
    return graph


def test_content_refs() -> None:
    assert content_refs("see [[db]] and [[ api ]] then [[db]]; [[]] [[a\nb]]") == ["db", "api"]


def test_links_join_every_version_and_typed_edges_read_back_from_both_ends() -> None:
    graph = LinkGraph()
    graph.add("n1", "old", [])
    graph.add("n2", "old", [])
    graph.add("n3", "new", [("supersedes", "old"), ("relates", "new")])  # self-link ignored
    assert graph.neighbours("n3") == {"n1": "supersedes", "n2": "supersedes"}
    assert graph.neighbours("n1") == {"n3": "superseded_by"}
    assert graph.ids_of("old") == {"n1", "n2"} and graph.degree("n3") == 2 and len(graph) == 3
    assert graph.centrality("n3") == 1.0 and graph.centrality("n1") == 0.5


def test_a_link_added_before_its_target_exists_joins_when_it_comes() -> None:
    graph = LinkGraph()
    graph.add("n1", "a", [("relates", "b")])
    assert graph.neighbours("n1") == {}
    graph.add("n2", "b", [])
    assert graph.neighbours("n1") == {"n2": "relates"} and graph.neighbours("n2") == {
        "n1": "relates"
    }
    graph.remove("n2")
    assert graph.neighbours("n1") == {} and graph.centrality("n1") == 0.0
    graph.remove("unknown")  # ignored


def test_expand_and_shortest_path() -> None:
    graph = build({"1": ("a", [("relates", "b")]), "2": ("b", [("relates", "c")]),
                   "3": ("c", [("relates", "d")]), "4": ("d", []), "5": ("e", [])})  # fmt: skip
    assert graph.expand(["1"], 2, lambda n: True) == {"1": 0, "2": 1, "3": 2}
    assert graph.expand(["1"], 3, lambda n: n != "2") == {"1": 0}
    assert graph.shortest_path("1", "4") == ["1", "2", "3", "4"]
    assert graph.shortest_path("1", "5") == [] and graph.shortest_path("1", "zz") == []
    assert graph.shortest_path("1", "3", lambda n: n == "1") == []
    assert graph.shortest_path("1", "2", lambda n: False) == ["1", "2"]  # the goal is allowed


NODE = st.tuples(st.sampled_from(KEYS),
                 st.lists(st.tuples(st.sampled_from(KINDS), st.sampled_from(KEYS)), max_size=3))  # fmt: skip
OPS = st.lists(st.tuples(st.sampled_from(["n1", "n2", "n3", "n4", "n5"]), st.none() | NODE),
               max_size=15)  # fmt: skip


@given(OPS)
def test_incremental_changes_equal_a_fresh_build(ops: list[tuple[str, object]]) -> None:
    graph = LinkGraph()
    current: dict[str, tuple[str, list[tuple[str, str]]]] = {}
    for node, change in ops:
        if change is None:
            graph.remove(node)
            current.pop(node, None)
        else:
            key, links = change  # type: ignore[misc]
            graph.add(node, key, links)
            current[node] = (key, links)
        graph.centrality(node)  # exercise the cached maximum degree between changes
    fresh = build(current)
    nodes = list(current)
    assert set(adjacency(graph, nodes)) == set(adjacency(fresh, nodes))
    for node in nodes:
        assert set(graph.neighbours(node)) == set(fresh.neighbours(node))
        assert node not in graph.neighbours(node)
        assert abs(graph.centrality(node) - fresh.centrality(node)) < 1e-12
    assert len(graph) == len(current)
