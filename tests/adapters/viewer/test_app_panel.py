"""The MCP Apps panel in a real browser playing the host: the ``ui://`` resource's HTML in a
sandboxed iframe that speaks the MCP Apps postMessage protocol (``ui/initialize``,
``tool-input``, ``tool-result``, ``size-changed``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from toon_memory.memory.api import Memory

HOST = """
window.hostLog = [];
window.openPanel = (html, results) => {
  const frame = document.createElement("iframe");
  frame.setAttribute("sandbox", "allow-scripts");
  frame.style.width = "1000px"; frame.style.height = "640px";
  const send = (message) => frame.contentWindow.postMessage(message, "*");
  window.addEventListener("message", (event) => {
    if (event.source !== frame.contentWindow) return;
    const m = event.data;
    window.hostLog.push(m.method || "response");
    if (m.method === "ui/initialize") {
      send({jsonrpc: "2.0", id: m.id, result: {protocolVersion: "2026-01-26",
        hostCapabilities: {}, hostInfo: {name: "test-host", version: "1"},
        hostContext: {theme: "dark"}}});
    } else if (m.method === "ui/notifications/initialized") {
      send({jsonrpc: "2.0", method: "ui/notifications/tool-input",
            params: {arguments: {query: "redis"}}});
      send({jsonrpc: "2.0", method: "ui/notifications/tool-result",
            params: {content: [{type: "text", text: "..."}], structuredContent: {results}}});
    }
  });
  frame.srcdoc = html;
  document.body.appendChild(frame);
};
"""


def test_the_panel_speaks_the_mcp_apps_protocol(
    page: Any, fixture_memory: Memory, artifacts: Path
) -> None:
    from playwright.sync_api import expect

    from toon_memory.adapters.viewer.page import standalone_page
    from toon_memory.adapters.viewer.payload import graph_payload

    html = standalone_page(graph_payload(fixture_memory), app=True)
    results = [{"id": fixture_memory.get(k).id} for k in ("cache-bug", "token-refresh")]
    page.set_content("<!doctype html><body></body>")
    page.add_script_tag(content=HOST)
    page.evaluate("([html, results]) => openPanel(html, results)", [html, results])
    panel = page.frame_locator("iframe")
    expect(panel.locator("#search")).to_have_value("redis")
    matched = panel.locator("#graph circle.node.match")
    expect(matched).to_have_count(2)
    assert set(matched.evaluate_all("ns => ns.map(n => n.dataset.id)")) == {
        r["id"] for r in results
    }
    expect(panel.locator("#match-count")).to_have_text("2 matches · found by memory search")
    assert panel.locator("html").get_attribute("data-theme") == "dark"
    log = page.evaluate("hostLog")
    assert log[:2] == ["ui/initialize", "ui/notifications/initialized"]
    assert "ui/notifications/size-changed" in log
    assert panel.locator("circle.node").count() == len(fixture_memory.entries())
    assert [f.evaluate("typeof window.__pwned") for f in page.frames] == ["undefined"] * 2
    page.screenshot(path=str(artifacts / "mcp-app.png"))
