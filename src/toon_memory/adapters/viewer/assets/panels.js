/* toon-memory viewer: everything around the graph (sidebar tabs, tooltip, detail panel,
 * path bar, physics sliders, theme, picture export, keyboard). Text only: see viewer.js. */
(function () {
  "use strict";
  var TV = window.ToonViewer, S = TV.state;
  var LIST_MAX = 400, THEME_KEY = "toon-memory-viewer-theme";
  var $ = function (id) { return document.getElementById(id); };

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function preview(text, max) {
    var flat = String(text || "").replace(/\s+/g, " ").trim();
    return flat.length > max ? flat.slice(0, max - 1) + "…" : flat;
  }

  // -- theme ---------------------------------------------------------------------------
  function storedTheme() {
    try { return localStorage.getItem(THEME_KEY); } catch (e) { return null; }
  }
  TV.setTheme = function (theme, remember) {
    document.documentElement.dataset.theme = theme === "light" ? "light" : "dark";
    if (remember) { try { localStorage.setItem(THEME_KEY, document.documentElement.dataset.theme); } catch (e) { /* no storage */ } }
  };
  TV.hostTheme = function (theme) { if (!storedTheme() && theme) TV.setTheme(theme, false); };
  function initTheme() {
    var light = window.matchMedia && window.matchMedia("(prefers-color-scheme: light)").matches;
    TV.setTheme(storedTheme() || (light ? "light" : "dark"), false);
  }

  // -- sidebar: entries ----------------------------------------------------------------
  function renderList() {
    var list = $("entry-list"), items = S.nodes;
    if (S.matches) items = items.filter(function (n) { return S.matches.has(n.id); });
    items = items.slice().sort(function (a, b) {
      return (b.e.updated || "").localeCompare(a.e.updated || "") || a.e.key.localeCompare(b.e.key);
    });
    if (S.selected) {
      var at = items.findIndex(function (n) { return n.id === S.selected; });
      if (at >= LIST_MAX) items.unshift(items.splice(at, 1)[0]);
    }
    var frag = document.createDocumentFragment();
    items.slice(0, LIST_MAX).forEach(function (n) {
      var li = el("li", n.id === S.selected ? "sel" : "");
      li.dataset.id = n.id;
      if (S.matches) li.classList.add("match");
      li.appendChild(el("span", "dot " + TV.catClass(n.e.category)));
      li.appendChild(el("span", "key", n.e.key));
      li.appendChild(el("span", "preview", preview(n.e.content, 90)));
      frag.appendChild(li);
    });
    list.textContent = "";
    list.appendChild(frag);
    var more = items.length - LIST_MAX;
    $("entry-more").textContent = more > 0 ? "… " + more + " more: refine the search" :
      items.length + (items.length === 1 ? " entry" : " entries");
  }

  function markListSelection() {
    var items = $("entry-list").children, found = false;
    for (var i = 0; i < items.length; i++) {
      var on = items[i].dataset.id === S.selected;
      items[i].classList.toggle("sel", on);
      if (on) { found = true; items[i].scrollIntoView({ block: "nearest" }); }
    }
    if (S.selected && !found) renderList();
  }

  function listClick(event, open) {
    var li = event.target.closest("li[data-id]");
    if (!li) return;
    TV.select(li.dataset.id, { centre: true });
    if (open) TV.emit("detail", li.dataset.id);
  }

  // -- sidebar: stats ------------------------------------------------------------------
  function bars(parent, title, rows, onPick) {
    parent.appendChild(el("h3", "", title));
    var top = Math.max(1, d3.max(rows, function (r) { return r[1]; }) || 1);
    rows.forEach(function (r) {
      var row = el("div", "bar-row" + (onPick ? " clickable" : ""));
      row.appendChild(el("span", "label", r[0]));
      var bar = el("div", "bar"), fill = el("div", "fill " + (r[2] || ""));
      fill.style.width = (100 * r[1] / top).toFixed(1) + "%";
      bar.appendChild(fill);
      row.appendChild(bar);
      row.appendChild(el("span", "count", r[1]));
      if (onPick) row.addEventListener("click", function () { onPick(r[0]); });
      parent.appendChild(row);
    });
  }

  function figures(parent, pairs) {
    var dl = el("dl", "figures");
    pairs.forEach(function (p) { dl.appendChild(el("dt", "", p[0])); dl.appendChild(el("dd", "", p[1])); });
    parent.appendChild(dl);
  }

  function counts(values) {
    var m = new Map();
    values.forEach(function (v) { m.set(v, (m.get(v) || 0) + 1); });
    return Array.from(m.entries()).sort(function (a, b) { return b[1] - a[1] || String(a[0]).localeCompare(String(b[0])); });
  }

  function pct(x) { return Math.round(100 * (x || 0)) + "%"; }

  function renderStats() {
    var box = $("tab-stats"), st = S.data.stats || {}, es = S.data.entries;
    box.textContent = "";
    figures(box, [
      ["Active entries", es.length], ["Links", S.links.length], ["Archived", st.archived || 0],
      ["Pinned", st.pinned || 0], ["Average quality", (st.average_quality || 0).toFixed(2)],
      ["Hit rate", pct(st.hit_rate)], ["Duplicates", pct(st.duplicate_rate)],
      ["Expiring in 7 days", st.expiring_7d || 0],
    ]);
    bars(box, "Categories", counts(es.map(function (e) { return e.category; })).map(function (r) {
      return [r[0], r[1], TV.catClass(r[0])];
    }), function (c) { setQuery(c); });
    var tags = counts([].concat.apply([], es.map(function (e) { return e.tags || []; }))).slice(0, 20);
    bars(box, "Top tags", tags, function (t) { setQuery(t); });
    var buckets = [["0.0–0.2", 0], ["0.2–0.4", 0], ["0.4–0.6", 0], ["0.6–0.8", 0], ["0.8–1.0", 0]];
    es.forEach(function (e) { buckets[Math.min(4, Math.floor((e.quality || 0) * 5))][1] += 1; });
    bars(box, "Quality", buckets);
    bars(box, "Origin", counts(es.map(function (e) { return e.origin || "?"; })));
  }

  // -- sidebar: timeline ---------------------------------------------------------------
  function renderTimeline() {
    var box = $("tab-timeline"), es = S.data.entries;
    box.textContent = "";
    var months = counts(es.map(function (e) { return (e.created || e.date || "").slice(0, 7) || "undated"; }))
      .sort(function (a, b) { return String(b[0]).localeCompare(String(a[0])); });
    bars(box, "Created per month", months, function (month) {
      var ids = es.filter(function (e) { return (e.created || e.date || "").slice(0, 7) === month; })
        .map(function (e) { return e.id; });
      $("search").value = "";
      S.query = "";
      TV.highlightIds(ids, "created in " + month);
    });
    box.appendChild(el("h3", "", "Recently updated"));
    var ul = el("ul", "recent");
    es.slice().sort(function (a, b) { return (b.updated || "").localeCompare(a.updated || ""); })
      .slice(0, 25).forEach(function (e) {
        var li = el("li");
        li.dataset.id = e.id;
        li.appendChild(el("span", "when", (e.updated || e.date || "").slice(0, 10)));
        li.appendChild(el("span", "", e.key));
        ul.appendChild(li);
      });
    ul.addEventListener("click", function (event) { listClick(event, false); });
    box.appendChild(ul);
  }

  // -- header, legend ------------------------------------------------------------------
  function setQuery(q) { $("search").value = q; TV.search(q); }
  TV.setQuery = setQuery;

  function renderMatchCount() {
    var out = $("match-count");
    if (!S.matches) { out.textContent = ""; return; }
    var n = S.matches.size;
    out.textContent = n + (n === 1 ? " match" : " matches") + (S.matchLabel ? " · " + S.matchLabel : "");
  }

  function renderLegend() {
    var box = $("legend");
    box.textContent = "";
    var present = new Set(S.nodes.map(function (n) { return TV.catClass(n.e.category); }));
    TV.CATEGORIES.concat(["other"]).forEach(function (c) {
      if (!present.has("cat-" + c)) return;
      var item = el("span");
      item.appendChild(el("span", "dot cat-" + c));
      item.appendChild(document.createTextNode(c));
      box.appendChild(item);
    });
    [["edge", "link"], ["edge typed", "supersedes"]].forEach(function (e) {
      var item = el("span");
      item.appendChild(el("span", e[0]));
      item.appendChild(document.createTextNode(e[1]));
      box.appendChild(item);
    });
  }

  // -- tooltip -------------------------------------------------------------------------
  function tooltip(arg) {
    var tip = $("tooltip");
    if (!arg) { tip.hidden = true; return; }
    var e = arg.node.e, stage = $("stage").getBoundingClientRect();
    if (tip.dataset.id !== e.id) {
      tip.dataset.id = e.id;
      tip.textContent = "";
      tip.appendChild(el("div", "key", e.key));
      tip.appendChild(el("div", "meta", e.category + " · quality " + Number(e.quality || 0).toFixed(2) +
        " · accessed " + (e.accessed || 0) + "×"));
      tip.appendChild(el("div", "preview", preview(e.content, 220)));
    }
    tip.hidden = false;
    var x = arg.event.clientX - stage.left + 14, y = arg.event.clientY - stage.top + 14;
    tip.style.left = Math.min(x, stage.width - tip.offsetWidth - 6) + "px";
    tip.style.top = Math.min(y, stage.height - tip.offsetHeight - 6) + "px";
  }

  // -- detail panel --------------------------------------------------------------------
  function showValue(value) {
    if (Array.isArray(value)) return value.length ? value.join(", ") : "—";
    if (value && typeof value === "object") return Object.keys(value).length ? JSON.stringify(value, null, 1) : "—";
    return value === "" || value === null || value === undefined ? "—" : String(value);
  }

  function openDetail(id, centre) {
    var n = TV.node(id);
    if (!n) return;
    $("detail").hidden = false;
    $("detail").dataset.id = id;
    $("detail-title").textContent = n.e.key;
    var dl = $("detail-fields");
    dl.textContent = "";
    Object.keys(n.e).forEach(function (field) {
      dl.appendChild(el("dt", "", field));
      dl.appendChild(el("dd", "", showValue(n.e[field])));
    });
    var ul = $("detail-links");
    ul.textContent = "";
    (S.adj.get(id) || []).forEach(function (other) {
      var li = el("li", "", TV.node(other).e.key);
      li.dataset.id = other;
      li.appendChild(el("span", "type", S.kinds.get(id + " " + other) || "relates"));
      ul.appendChild(li);
    });
    if (!ul.children.length) ul.appendChild(el("li", "muted", "none"));
    if (centre) TV.centre(id);
  }

  function closeDetail() { $("detail").hidden = true; }

  // -- path bar ------------------------------------------------------------------------
  function renderPathBar() {
    var bar = $("pathbar"), steps = $("path-steps"), status = $("path-status");
    bar.hidden = !S.pathMode && !S.path.length;
    $("btn-path").classList.toggle("on", S.pathMode);
    steps.textContent = "";
    S.path.forEach(function (id) {
      var li = el("li", "", TV.node(id) ? TV.node(id).e.key : id);
      li.dataset.id = id;
      steps.appendChild(li);
    });
    if (S.pathPending) status.textContent = "Finding the path…";
    else if (S.path.length) status.textContent = "Path (" + (S.path.length - 1) + (S.path.length === 2 ? " hop):" : " hops):");
    else if (S.ends.length === 2) status.textContent = "No path between these two entries.";
    else if (S.ends.length === 1) status.textContent = "Now click the end node.";
    else status.textContent = "Path finder: click the start node.";
  }

  // -- physics -------------------------------------------------------------------------
  function initPhysics() {
    ["charge", "distance", "gravity"].forEach(function (name) {
      var input = $("in-" + name), out = $("out-" + name);
      input.value = String(S.physics[name]);
      out.textContent = input.value;
      input.addEventListener("input", function () {
        out.textContent = input.value;
        var change = {};
        change[name] = Number(input.value);
        TV.setPhysics(change);
      });
    });
  }

  // -- picture export ------------------------------------------------------------------
  function download(name, blob) {
    var a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = name;
    document.body.appendChild(a);
    a.click();
    setTimeout(function () { URL.revokeObjectURL(a.href); a.remove(); }, 2000);
  }

  function saveSvg() {
    download("memory-graph.svg", new Blob([TV.svgText()], { type: "image/svg+xml" }));
  }

  function savePng() {
    var text = TV.svgText(), img = new Image();
    img.onload = function () {
      var scale = Math.min(2, 8000 / Math.max(img.width, img.height, 1));
      var canvas = document.createElement("canvas");
      canvas.width = Math.max(1, Math.round(img.width * scale));
      canvas.height = Math.max(1, Math.round(img.height * scale));
      var ctx = canvas.getContext("2d");
      ctx.scale(scale, scale);
      ctx.drawImage(img, 0, 0);
      canvas.toBlob(function (blob) { if (blob) download("memory-graph.png", blob); }, "image/png");
    };
    img.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(text);
  }

  // -- wiring --------------------------------------------------------------------------
  function keys(event) {
    var typing = event.target.matches && event.target.matches("input, textarea");
    if (event.key === "Escape") {
      if (typing) event.target.blur();
      if (!$("detail").hidden) closeDetail();
      else if (S.pathMode || S.path.length) TV.setPathMode(false);
      else TV.select(null);
      return;
    }
    if (typing || event.ctrlKey || event.metaKey || event.altKey) return;
    var actions = {
      "/": function () { $("search").focus(); }, "+": function () { TV.zoomBy(1.3); },
      "=": function () { TV.zoomBy(1.3); }, "-": function () { TV.zoomBy(1 / 1.3); },
      "0": function () { TV.fit(true); }, p: function () { TV.setPathMode(!S.pathMode); },
      t: toggleTheme, r: function () { TV.reload(); },
    };
    if (actions[event.key]) { event.preventDefault(); actions[event.key](); }
  }

  function toggleTheme() {
    TV.setTheme(document.documentElement.dataset.theme === "dark" ? "light" : "dark", true);
  }

  function wire() {
    var search = $("search");
    search.addEventListener("input", function () { TV.search(search.value); });
    $("btn-path").addEventListener("click", function () { TV.setPathMode(!S.pathMode); });
    $("path-close").addEventListener("click", function () { TV.setPathMode(false); });
    $("btn-zoom-in").addEventListener("click", function () { TV.zoomBy(1.3); });
    $("btn-zoom-out").addEventListener("click", function () { TV.zoomBy(1 / 1.3); });
    $("btn-fit").addEventListener("click", function () { TV.fit(true); });
    $("btn-physics").addEventListener("click", function () {
      $("physics").hidden = !$("physics").hidden;
      $("btn-physics").classList.toggle("on", !$("physics").hidden);
    });
    $("btn-theme").addEventListener("click", toggleTheme);
    $("btn-png").addEventListener("click", savePng);
    $("btn-svg").addEventListener("click", saveSvg);
    $("btn-reload").addEventListener("click", function () { TV.reload(); });
    $("detail-close").addEventListener("click", closeDetail);
    $("entry-list").addEventListener("click", function (event) { listClick(event, false); });
    $("entry-list").addEventListener("dblclick", function (event) { listClick(event, true); });
    [$("detail-links"), $("path-steps")].forEach(function (list) {
      list.addEventListener("click", function (event) {
        var li = event.target.closest("li[data-id]");
        if (li) { TV.select(li.dataset.id, { centre: true }); if (list.id === "detail-links") openDetail(li.dataset.id, true); }
      });
    });
    document.querySelectorAll(".tabs button").forEach(function (button) {
      button.addEventListener("click", function () {
        document.querySelectorAll(".tabs button, .tab").forEach(function (x) { x.classList.remove("active"); });
        button.classList.add("active");
        $("tab-" + button.dataset.tab).classList.add("active");
      });
    });
    document.addEventListener("keydown", keys);
  }

  TV.initPanels = function () {
    initTheme();
    initPhysics();
    wire();
    TV.on("data", function (data) {
      $("project").textContent = data.project || "";
      $("empty").hidden = data.entries.length > 0;
      renderList(); renderStats(); renderTimeline(); renderLegend(); renderMatchCount();
      if (!$("detail").hidden) { if (TV.node($("detail").dataset.id)) openDetail($("detail").dataset.id, false); else closeDetail(); }
    });
    TV.on("search", function () { renderList(); renderMatchCount(); });
    TV.on("select", markListSelection);
    TV.on("hover", tooltip);
    TV.on("detail", function (id) { openDetail(id, true); });
    TV.on("path", renderPathBar);
    TV.on("pathmode", renderPathBar);
    TV.on("path-error", function (message) { renderPathBar(); $("path-status").textContent = message; });
  };
})();
