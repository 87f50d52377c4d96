"""The page and its data, without a browser: JSON embedding, the static file, the assets,
the edges (against the engine), and the built wheel carrying the assets."""

from __future__ import annotations

import base64
import hashlib
import json
import re
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.adapters.viewer.helpers import ROOT, XSS_CONTENT, build_fixture

from toon_memory.adapters.viewer import page
from toon_memory.adapters.viewer.payload import edges_between, graph_payload, path_ids
from toon_memory.memory.api import Memory
from toon_memory.model.entry import Entry
from toon_memory.search import Engine

ASSETS = ROOT / "src" / "toon_memory" / "adapters" / "viewer" / "assets"
OUR_SCRIPTS = ("viewer.js", "panels.js", "bridge.js")
SVG_NS = '"http://www.w3.org/2000/svg"'
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)


@given(JSON_VALUES)
def test_embedded_json_cannot_close_its_script_block(value: Any) -> None:
    embedded = page.embed_json(value)
    assert not set(embedded) & {"<", ">", "&", "\u2028", "\u2029"}
    assert json.loads(embedded) == value


def test_embedded_json_of_the_classic_breakouts() -> None:
    for text in ("</script><script>alert(1)</script>", "<!--", "</SCRIPT>", "-->", "]]>"):
        embedded = page.embed_json({"content": text})
        assert "</" not in embedded and "<!--" not in embedded
        assert json.loads(embedded) == {"content": text}


def _data_block(html: str) -> str:
    found = re.search(r'<script type="application/json" id="toon-data">(.*?)</script>', html, re.S)
    assert found is not None
    return found.group(1)


def test_the_static_page_holds_the_data_and_only_its_own_scripts(project: Path) -> None:
    payload = graph_payload(build_fixture(project))
    html = page.standalone_page(payload)
    assert json.loads(_data_block(html)) == payload
    assert XSS_CONTENT in {e["content"] for e in payload["entries"]}
    assert html.lower().count("<script") == 1 + len(page.SCRIPTS)
    assert html.lower().count("</script") == 1 + len(page.SCRIPTS)
    csp = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', html)
    assert csp is not None and "default-src 'none'" in csp.group(1)
    bodies = re.findall(r"<script>(.*?)</script>", html, re.S)
    assert len(bodies) == len(page.SCRIPTS)
    for body in bodies:
        digest = base64.b64encode(hashlib.sha256(body.encode()).digest()).decode()
        assert f"'sha256-{digest}'" in csp.group(1)
    assert (
        "http://" not in html.replace('xmlns="http://www.w3.org/2000/svg"', "").split("<script>")[0]
    )


def test_the_mcp_app_page_carries_no_csp_of_its_own(project: Path) -> None:
    html = page.standalone_page(graph_payload(build_fixture(project)), app=True)
    assert "Content-Security-Policy" not in html
    assert '<meta name="toon-viewer-mode" content="app">' in html


def test_the_live_page_loads_only_known_assets() -> None:
    html = page.live_page()
    loaded = [url for url in re.findall(r'(?:src|href)="([^"]+)"', html) if url != "data:,"]
    assert loaded and all(url.startswith("/assets/") for url in loaded)
    assert {url.removeprefix("/assets/") for url in loaded} <= set(page.ASSET_TYPES)
    assert "toon-data" not in html
    with pytest.raises(KeyError):
        page.asset("index.html")
    with pytest.raises(KeyError):
        page.asset("../page.py")


def test_our_scripts_never_parse_html_and_never_reach_the_network() -> None:
    for name in OUR_SCRIPTS:
        code = (ASSETS / name).read_text(encoding="utf-8").replace(SVG_NS, "")
        for banned in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write",
                       "eval(", "new Function", ".html(", "http://", "https://"):  # fmt: skip
            assert banned not in code, f"{name} uses {banned}"
        assert not re.search(r"</script|<!--", code, re.I)


def test_vendored_d3_is_the_pinned_release_with_its_licence() -> None:
    code = (ASSETS / "d3.min.js").read_bytes()
    assert hashlib.sha256(code).hexdigest() == (
        "912111098ea99503a6f4967361d2bbdc9dbf58cf9c678c8e27e5b02d1a07f0c1"
    )
    assert code.startswith(b"// https://d3js.org v7.9.2 ")
    assert "Copyright 2010-2026 Mike Bostock" in (ASSETS / "d3-LICENSE.txt").read_text()
    assert "7.9.2" in (ASSETS / "VENDORED.md").read_text()


def _entry(i: int, key: str, links: list[str], content: str, status: str) -> Entry:
    return Entry(id=f"{i:08x}", category="knowledge", key=key, content=content, links=links,
                 status=status)  # fmt: skip


KEYS = [f"k{i}" for i in range(6)]
ENTRY_SPECS = st.lists(
    st.tuples(
        st.sampled_from(KEYS),
        st.lists(
            st.tuples(
                st.sampled_from(["", "relates:", "supersedes:", "superseded_by:"]),
                st.sampled_from(KEYS),
            ),
            max_size=3,
        ),
        st.lists(st.sampled_from(KEYS), max_size=2),
        st.sampled_from(["active", "active", "active", "superseded"]),
    ),
    min_size=1,
    max_size=9,
)


@settings(max_examples=60, deadline=None)
@given(ENTRY_SPECS)
def test_edges_are_the_engines_adjacency_between_active_entries(specs: list[Any]) -> None:
    """A pair is an edge exactly when the engine's shortest path between them is one hop,
    and every shortest path over these edges has the engine's length."""
    entries = [
        _entry(
            i,
            key,
            [kind + target for kind, target in links],
            " ".join(f"[[{m}]]" for m in mentions),
            status,
        )
        for i, (key, links, mentions, status) in enumerate(specs)
    ]
    active = [e for e in entries if e.active]
    engine = Engine.build(entries)
    edges = {frozenset((active[a].id, active[b].id)) for a, b, _ in edges_between(active)}
    assert len(edges) == len(edges_between(active))  # each pair once
    for a in active:
        for b in active:
            if a.id != b.id:
                one_hop = len(engine.graph_path(a.id, b.id)) == 2
                assert one_hop == (frozenset((a.id, b.id)) in edges), (a.key, b.key)
    for source, target, kind in edges_between(active):
        assert kind in ("relates", "supersedes")
        if kind == "supersedes":
            assert f"supersedes:{active[target].key}" in active[source].links or (
                f"superseded_by:{active[source].key}" in active[target].links
            )


def test_payload_is_the_memorys_public_view(project: Path) -> None:
    memory = build_fixture(project)
    payload = graph_payload(memory)
    assert [e["id"] for e in payload["entries"]] == [e.id for e in memory.entries()]
    assert "gone-note" not in {e["key"] for e in payload["entries"]}
    assert payload["stats"] == memory.stats().to_dict()
    assert payload["project"] == project.name
    assert path_ids(memory, "auth-decision", "cache-bug") == [
        e.id for e in memory.graph_path("auth-decision", "cache-bug")
    ]


def test_export_writes_one_file(project: Path, tmp_path: Path) -> None:
    memory = Memory(project)
    target = page.write_export(graph_payload(memory), tmp_path / "a" / "b" / "view.html")
    assert target.read_text(encoding="utf-8").startswith("<!doctype html>")
    assert json.loads(_data_block(target.read_text(encoding="utf-8")))["entries"] == []


def test_an_installed_wheel_carries_the_page_assets(tmp_path: Path) -> None:
    pytest.importorskip("hatchling", reason="hatchling is needed to build the wheel offline")
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
         "-w", str(tmp_path / "dist"), str(ROOT)],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert built.returncode == 0, built.stderr
    wheel = next((tmp_path / "dist").glob("toon_memory-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    for name in ("index.html", *page.ASSET_TYPES):
        assert f"toon_memory/adapters/viewer/assets/{name}" in names
    site = tmp_path / "site"
    installed = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(site), str(wheel)],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert installed.returncode == 0, installed.stderr
    probe = (
        "import toon_memory.adapters.viewer.page as p, sys; "
        "assert p.__file__.startswith(sys.argv[1]), p.__file__; "
        "html = p.standalone_page({'entries': [], 'edges': [], 'stats': {}}); "
        "assert 'd3js.org v7.9.2' in html and 'ToonViewer' in html; print('ok')"
    )
    ran = subprocess.run(
        [sys.executable, "-c", probe, str(site)], capture_output=True, text=True, timeout=60,
        env={"PYTHONPATH": str(site), "PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    assert ran.stdout.strip() == "ok", ran.stderr
