"""The viewer page in a real browser (headless system chromium through Playwright).

Each test opens the page over a fixture memory: the live server (a real
``toon-memory viewer`` process) or the static export opened from ``file://``.
Screenshots go to the artifacts folder. Skipped, with the reason, where no
chromium can be had.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.adapters.viewer.helpers import XSS_KEYS, active_ids, running_viewer
from tests.conftest import run_cli

from toon_memory.adapters.viewer.payload import edges_between
from toon_memory.memory.api import Memory

WAIT = 30_000


def _settled(page: Any) -> None:
    page.locator('body[data-settled="1"]').wait_for(state="attached", timeout=WAIT)


def _circle(page: Any, memory: Memory, key: str) -> Any:
    return page.locator(f'#graph circle.node[data-id="{memory.get(key).id}"]')


def _drawn_ids(page: Any) -> list[str]:
    found: list[str] = page.locator("#graph circle.node").evaluate_all(
        "nodes => nodes.map(n => n.getAttribute('data-id'))"
    )
    return found


def _not_pwned(page: Any) -> None:
    assert page.evaluate("typeof window.__pwned") == "undefined"
    assert page.locator('img[src="x"], svg[onload]').count() == 0


def test_live_page_draws_every_active_entry_and_link(
    page: Any, fixture_memory: Memory, project: Path, artifacts: Path
) -> None:
    entries = fixture_memory.entries()
    with running_viewer(project) as viewer:
        page.goto(viewer.url)
        _settled(page)
        assert sorted(_drawn_ids(page)) == sorted(e.id for e in entries)
        assert page.locator("#graph line.link").count() == len(edges_between(entries))
        assert page.locator("#graph line.link.t-supersedes").count() == 1
        assert page.locator("#entry-list li").count() == len(entries)
        assert page.locator("#live").inner_text() == "● live"
        page.screenshot(path=str(artifacts / "live-graph.png"))
    assert page.page_errors == []


def test_search_highlights_the_matches(
    page: Any, fixture_memory: Memory, project: Path, artifacts: Path
) -> None:
    from playwright.sync_api import expect

    with running_viewer(project) as viewer:
        page.goto(viewer.url)
        _settled(page)
        page.fill("#search", "redis")
        matches = page.locator("#graph circle.node.match")
        expect(matches).to_have_count(1)
        assert matches.get_attribute("data-key") == "session-store"
        total = len(fixture_memory.entries())
        assert page.locator("#graph circle.node.faded").count() == total - 1
        assert page.locator("#match-count").inner_text() == "1 match"
        expect(page.locator("#entry-list li")).to_have_count(1)
        page.screenshot(path=str(artifacts / "search.png"))
        page.fill("#search", "")
        expect(page.locator("#graph circle.node.match")).to_have_count(0)


def test_click_selects_and_double_click_opens_the_detail_panel(
    page: Any, fixture_memory: Memory, project: Path, artifacts: Path
) -> None:
    from playwright.sync_api import expect

    entry = fixture_memory.get("auth-decision")
    neighbours = {
        fixture_memory.get(k).id for k in ("token-refresh", "session-store", "xss-content")
    }
    with running_viewer(project) as viewer:
        page.goto(viewer.url)
        _settled(page)
        _circle(page, fixture_memory, "auth-decision").click()
        expect(page.locator("#graph circle.node.sel")).to_have_count(1)
        highlighted = page.locator("#graph circle.node.nb").evaluate_all(
            "ns => ns.map(n => n.getAttribute('data-id'))"
        )
        assert set(highlighted) == neighbours
        expect(page.locator(f'#entry-list li.sel[data-id="{entry.id}"]')).to_have_count(1)
        assert page.locator("#detail").is_hidden()
        _settled(page)
        _circle(page, fixture_memory, "auth-decision").dblclick()
        expect(page.locator("#detail")).to_be_visible()
        assert page.locator("#detail-title").inner_text() == "auth-decision"
        fields = page.locator("#detail-fields dt").all_inner_texts()
        assert set(entry.to_dict()) <= set(fields)
        assert entry.content in page.locator("#detail-fields").inner_text()
        assert page.locator("#detail-links li").count() == len(neighbours)
        page.screenshot(path=str(artifacts / "detail.png"))


def _pick_path(page: Any, memory: Memory, start: str, end: str) -> None:
    page.click("#btn-path")
    _circle(page, memory, start).click()
    _circle(page, memory, end).click()


def test_path_finder_lights_the_path_memory_graph_path_returns(
    page: Any, fixture_memory: Memory, project: Path, artifacts: Path
) -> None:
    from playwright.sync_api import expect

    expected = [e.id for e in fixture_memory.graph_path("auth-decision", "cache-bug")]
    assert len(expected) == 3  # two equally short routes: the tie-break matters
    with running_viewer(project) as viewer:
        page.goto(viewer.url)
        _settled(page)
        _pick_path(page, fixture_memory, "auth-decision", "cache-bug")
        steps = page.locator("#path-steps li")
        expect(steps).to_have_count(len(expected))
        assert steps.evaluate_all("ls => ls.map(l => l.dataset.id)") == expected
        lit = page.locator("#graph circle.node.on-path").evaluate_all(
            "ns => ns.map(n => n.getAttribute('data-id'))"
        )
        assert set(lit) == set(expected)
        assert page.locator("#graph line.link.on-path").count() == len(expected) - 1
        page.screenshot(path=str(artifacts / "path.png"))
        _circle(page, fixture_memory, "lonely-note").click()
        _circle(page, fixture_memory, "cache-bug").click()
        expect(page.locator("#path-status")).to_have_text("No path between these two entries.")
        expect(steps).to_have_count(0)


def test_the_pages_own_search_finds_the_same_paths_as_the_engine(
    page: Any, fixture_memory: Memory, tmp_path: Path
) -> None:
    """Every pair: the page's breadth-first search (used by the static export and the MCP
    panel) gives exactly ``Memory.graph_path``."""
    from toon_memory.adapters.viewer.page import write_export
    from toon_memory.adapters.viewer.payload import graph_payload

    target = write_export(graph_payload(fixture_memory), tmp_path / "view.html")
    page.goto(target.as_uri())
    page.locator('body[data-rendered="1"]').wait_for(state="attached", timeout=WAIT)
    ids = active_ids(fixture_memory)
    pairs = [(a, b) for a in ids for b in ids]
    found = page.evaluate("pairs => pairs.map(p => ToonViewer.bfs(p[0], p[1]))", pairs)
    for (a, b), path in zip(pairs, found, strict=True):
        assert path == [e.id for e in fixture_memory.graph_path(a, b)], (a, b)


def test_markup_in_keys_and_content_never_runs(
    browser: Any, fixture_memory: Memory, project: Path, artifacts: Path
) -> None:
    """With the page's CSP switched off, so that the code itself is what keeps it safe."""
    from playwright.sync_api import expect

    context = browser.new_context(bypass_csp=True, viewport={"width": 1280, "height": 800})
    page = context.new_page()
    try:
        with running_viewer(project) as viewer:
            page.goto(viewer.url)
            _settled(page)
            for key in ("xss-content", *XSS_KEYS):
                page.keyboard.press("0")  # fit: the last double-click centred another node
                circle = _circle(page, fixture_memory, key)
                circle.hover()
                expect(page.locator("#tooltip .key")).to_have_text(key)
                circle.dblclick()
                expect(page.locator("#detail-title")).to_have_text(key)
                page.keyboard.press("Escape")
            page.fill("#search", "pwned")
            expect(page.locator("#entry-list li")).to_have_count(3)
            page.click('.tabs button[data-tab="stats"]')
            page.click('.tabs button[data-tab="timeline"]')
            page.screenshot(path=str(artifacts / "xss.png"))
            _not_pwned(page)
            assert page.locator("script").count() == 4  # d3, viewer, panels, bridge
    finally:
        context.close()


def test_static_export_opens_from_file_url_with_no_network(
    page: Any, fixture_memory: Memory, project: Path, tmp_path: Path, artifacts: Path
) -> None:
    target = tmp_path / "out" / "view.html"
    done = run_cli("viewer", "--export", str(target), project=project, check=True)
    assert str(target) in done.stdout
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(target.as_uri())
    _settled(page)
    assert requests == [target.as_uri()]
    assert sorted(_drawn_ids(page)) == sorted(active_ids(fixture_memory))
    _not_pwned(page)
    _pick_path(page, fixture_memory, "auth-decision", "cache-bug")
    expected = [e.id for e in fixture_memory.graph_path("auth-decision", "cache-bug")]
    assert (
        page.locator("#path-steps li").evaluate_all("ls => ls.map(l => l.dataset.id)") == expected
    )
    page.screenshot(path=str(artifacts / "export.png"))
    assert page.page_errors == []


def test_a_change_to_the_memory_appears_live(
    page: Any, fixture_memory: Memory, project: Path, artifacts: Path
) -> None:
    from playwright.sync_api import expect

    count = len(fixture_memory.entries())
    with running_viewer(project) as viewer:
        page.goto(viewer.url)
        _settled(page)
        run_cli("remember", "-c", "decision", "-k", "live-one", "--content",
                "Written by another process [[cache-bug]]", project=project, check=True)  # fmt: skip
        nodes = page.locator("#graph circle.node")
        expect(nodes).to_have_count(count + 1)
        expect(page.locator('#graph circle.node[data-key="live-one"]')).to_have_count(1)
        fixture_memory.remember("knowledge", "live-two", "Written in-process, journal first.")
        expect(nodes).to_have_count(count + 2)
        fixture_memory.forget("live-one")
        expect(nodes).to_have_count(count + 1)
        expect(page.locator('#graph circle.node[data-key="live-one"]')).to_have_count(0)
        page.screenshot(path=str(artifacts / "live-update.png"))


def test_theme_is_remembered_across_visits(
    page: Any, fixture_memory: Memory, tmp_path: Path
) -> None:
    from toon_memory.adapters.viewer.page import write_export
    from toon_memory.adapters.viewer.payload import graph_payload

    target = write_export(graph_payload(fixture_memory), tmp_path / "view.html")
    page.goto(target.as_uri())
    before = page.locator("html").get_attribute("data-theme")
    page.click("#btn-theme")
    after = page.locator("html").get_attribute("data-theme")
    assert {before, after} == {"dark", "light"}
    page.reload()
    page.locator('body[data-rendered="1"]').wait_for(state="attached", timeout=WAIT)
    assert page.locator("html").get_attribute("data-theme") == after


def test_svg_and_png_export(page: Any, fixture_memory: Memory, tmp_path: Path) -> None:
    from toon_memory.adapters.viewer.page import write_export
    from toon_memory.adapters.viewer.payload import graph_payload

    target = write_export(graph_payload(fixture_memory), tmp_path / "view.html")
    page.goto(target.as_uri())
    _settled(page)
    with page.expect_download() as svg_download:
        page.click("#btn-svg")
    svg = Path(svg_download.value.path()).read_text(encoding="utf-8")
    assert svg.startswith("<svg") and svg.count("<circle") == len(fixture_memory.entries())
    assert "<img" not in svg and "<script" not in svg
    with page.expect_download() as png_download:
        page.click("#btn-png")
    assert Path(png_download.value.path()).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
