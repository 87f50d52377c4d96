/* toon-memory viewer: where the data comes from, then start.
 *  live   - served by `toon-memory viewer`: /api/graph, /api/path, server-sent events.
 *  static - `toon-memory viewer --export`: the JSON block in the page, no network at all.
 *  app    - the MCP Apps panel: the JSON block, plus the host's postMessage JSON-RPC
 *           (ui/initialize, tool-input sets the search, tool-result highlights matches). */
(function () {
  "use strict";
  var TV = window.ToonViewer;
  var meta = document.querySelector('meta[name="toon-viewer-mode"]');
  var mode = (TV.mode = meta ? meta.getAttribute("content") : "static");
  var $ = function (id) { return document.getElementById(id); };

  function embedded() {
    var block = $("toon-data");
    return JSON.parse(block ? block.textContent : '{"entries":[],"edges":[],"stats":{}}');
  }

  function setLive(on, text) {
    var out = $("live");
    out.classList.toggle("on", on);
    out.textContent = text;
  }

  function live() {
    var json = function (response) {
      return response.json().then(function (body) {
        if (!response.ok) throw new Error(body.error || response.statusText);
        return body;
      });
    };
    TV.source = {
      path: function (from, to) {
        var url = "/api/path?from=" + encodeURIComponent(from) + "&to=" + encodeURIComponent(to);
        return fetch(url, { cache: "no-store" }).then(json).then(function (body) { return body.path; });
      },
    };
    TV.reload = function () {
      return fetch("/api/graph", { cache: "no-store" }).then(json).then(TV.setData).catch(function (err) {
        setLive(false, "○ " + (err && err.message ? err.message : "offline"));
      });
    };
    TV.reload();
    var events = new EventSource("/api/events");
    events.addEventListener("hello", function () { setLive(true, "● live"); });
    events.addEventListener("change", function () { TV.reload(); });
    events.onerror = function () { setLive(false, "○ reconnecting"); };
  }

  function appBridge() {
    if (window.parent === window) return;
    var nextId = 1, pending = new Map();
    var post = function (message) { window.parent.postMessage(message, "*"); };
    var request = function (method, params) {
      return new Promise(function (resolve, reject) {
        var id = nextId++;
        pending.set(id, { resolve: resolve, reject: reject });
        post({ jsonrpc: "2.0", id: id, method: method, params: params });
      });
    };
    var context = function (ctx) { if (ctx && ctx.theme) TV.hostTheme(ctx.theme); };
    window.addEventListener("message", function (event) {
      var m = event.data;
      if (event.source !== window.parent || !m || m.jsonrpc !== "2.0") return;
      if (!m.method && pending.has(m.id)) {
        var waiter = pending.get(m.id);
        pending.delete(m.id);
        if (m.error) waiter.reject(m.error); else waiter.resolve(m.result);
        return;
      }
      var p = m.params || {};
      if (m.method === "ui/notifications/tool-input") {
        var q = p.arguments && p.arguments.query;
        if (typeof q === "string") TV.setQuery(q);
      } else if (m.method === "ui/notifications/tool-result") {
        var found = p.structuredContent && p.structuredContent.results;
        if (Array.isArray(found) && found.length) {
          TV.highlightIds(found.map(function (r) { return r && r.id; }).filter(Boolean), "found by memory search");
        }
      } else if (m.method === "ui/notifications/host-context-changed") {
        context(p);
      } else if (m.id !== undefined && (m.method === "ping" || m.method === "ui/resource-teardown")) {
        post({ jsonrpc: "2.0", id: m.id, result: {} });
      }
    });
    request("ui/initialize", {
      protocolVersion: "2026-01-26",
      appInfo: { name: "toon-memory-viewer", version: "1" },
      appCapabilities: { availableDisplayModes: ["inline", "fullscreen"] },
    }).then(function (result) {
      context(result && result.hostContext);
      post({ jsonrpc: "2.0", method: "ui/notifications/initialized", params: {} });
      post({ jsonrpc: "2.0", method: "ui/notifications/size-changed",
        params: { width: document.documentElement.clientWidth, height: document.body.offsetHeight } });
    }, function () { /* not hosted by an MCP Apps host */ });
  }

  document.documentElement.classList.add("mode-" + mode);
  TV.initGraph();
  TV.initPanels();
  if (mode === "live") {
    live();
  } else {
    TV.reload = mode === "static" ? function () { location.reload(); } : function () {};
    var data = embedded();
    setLive(false, mode === "static" ? "snapshot " + (data.generated || "") : "");
    TV.setData(data);
    if (mode === "app") appBridge();
  }
})();
