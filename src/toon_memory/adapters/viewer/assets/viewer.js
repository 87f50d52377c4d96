/* toon-memory viewer: the graph (state, force layout, selection, search, path finder).
 *
 * Safety rule for every file of the viewer: entry data is text, never markup. It reaches
 * the DOM only through textContent, d3's .text() and attribute values; no script of the
 * viewer uses an API that parses HTML (tests/viewer/test_page.py checks the sources).
 */
(function () {
  "use strict";
  var TV = (window.ToonViewer = window.ToonViewer || {});
  var CATEGORIES = ["decision", "pattern", "bug", "knowledge", "warning"];
  var S = (TV.state = {
    data: null, nodes: [], links: [], byId: new Map(), adj: new Map(), kinds: new Map(),
    selected: null, query: "", matches: null, matchLabel: "",
    pathMode: false, ends: [], path: [], version: 0,
    physics: { charge: -120, distance: 55, gravity: 0.05 },
  });
  var listeners = {};
  var svg, viewport, linkLayer, nodeLayer, labelLayer, zoom, sim, nodeSel, linkSel, labelSel;
  var running = false, userZoomed = false, firstPaint = true;
  // Layout steps per frame: as many as fit in the budget, then one paint. A big graph's
  // paint costs far more than a step, so it takes more steps per paint.
  var FRAME_BUDGET_MS = 14, BIG_FRAME_BUDGET_MS = 120;

  TV.CATEGORIES = CATEGORIES;
  TV.on = function (name, fn) { (listeners[name] = listeners[name] || []).push(fn); };
  TV.emit = function (name, arg) { (listeners[name] || []).forEach(function (fn) { fn(arg); }); };
  TV.catClass = function (category) {
    return "cat-" + (CATEGORIES.indexOf(category) >= 0 ? category : "other");
  };
  TV.radius = function (node) { return Math.min(20, 4 + 2.2 * Math.sqrt(node.e.accessed || 0)); };
  TV.node = function (id) { return S.byId.get(id) || null; };

  // -- set-up --------------------------------------------------------------------------
  TV.initGraph = function () {
    svg = d3.select("#graph");
    var defs = svg.append("defs");
    defs.append("marker").attr("id", "arrow").attr("viewBox", "0 -4 8 8").attr("refX", 14)
      .attr("markerWidth", 7).attr("markerHeight", 7).attr("orient", "auto")
      .append("path").attr("d", "M0,-4L8,0L0,4");
    viewport = svg.append("g").attr("class", "viewport");
    linkLayer = viewport.append("g").attr("class", "links");
    nodeLayer = viewport.append("g").attr("class", "nodes");
    labelLayer = viewport.append("g").attr("class", "labels");
    zoom = d3.zoom().scaleExtent([0.02, 8]).on("zoom", function (event) {
      if (event.sourceEvent) userZoomed = true;
      viewport.attr("transform", event.transform);
      labelLayer.style("font-size", (11 / Math.max(event.transform.k, 0.5)).toFixed(2) + "px");
    });
    svg.call(zoom).on("dblclick.zoom", null);
    svg.on("click", function (event) {
      if (event.target === svg.node()) { TV.select(null); }
    });
    sim = d3.forceSimulation().stop();  // driven by frame() below, not by d3's own timer
  };

  // -- data ----------------------------------------------------------------------------
  function buildAdjacency(nodes, links) {
    var adj = new Map(), kinds = new Map();
    nodes.forEach(function (n) { adj.set(n.id, []); });
    links.forEach(function (l) {
      adj.get(l.source.id).push(l.target.id);
      adj.get(l.target.id).push(l.source.id);
      kinds.set(l.source.id + " " + l.target.id, l.type);
      kinds.set(l.target.id + " " + l.source.id, l.type === "supersedes" ? "superseded by" : l.type);
    });
    adj.forEach(function (ids) { ids.sort(); });  // same order as the engine's sorted(ids)
    S.adj = adj;
    S.kinds = kinds;
  }

  function placeNewNodes(nodes, old) {
    nodes.forEach(function (n) {
      if (n.x !== undefined || old.size === 0) return;
      var anchor = (S.adj.get(n.id) || []).map(TV.node).find(function (m) { return m && m.x !== undefined; });
      if (anchor) { n.x = anchor.x + 12 * (Math.random() - 0.5); n.y = anchor.y + 12 * (Math.random() - 0.5); }
    });
  }

  TV.setData = function (data) {
    var old = S.byId;
    var nodes = data.entries.map(function (e, i) {
      var n = { id: e.id, i: i, e: e, text: searchText(e) }, prev = old.get(e.id);
      if (prev) { n.x = prev.x; n.y = prev.y; n.vx = prev.vx; n.vy = prev.vy; n.fx = prev.fx; n.fy = prev.fy; }
      return n;
    });
    var links = data.edges.map(function (edge) {
      return { source: nodes[edge[0]], target: nodes[edge[1]], type: edge[2] === "supersedes" ? "supersedes" : "relates" };
    });
    var first = S.data === null;
    S.data = data; S.nodes = nodes; S.links = links; S.version += 1;
    S.byId = new Map(nodes.map(function (n) { return [n.id, n]; }));
    buildAdjacency(nodes, links);
    placeNewNodes(nodes, old);
    sim.nodes(nodes);  // gives every node without one a starting position
    if (S.selected && !S.byId.has(S.selected)) S.selected = null;
    S.ends = S.ends.filter(function (id) { return S.byId.has(id); });
    draw();
    simulate(first);
    TV.search(S.query, true);
    TV.select(S.selected, { quiet: true });
    if (S.ends.length === 2) TV.findPath(S.ends[0], S.ends[1]); else TV.showPath([]);
    TV.emit("data", data);
    markRendered();
  };

  function searchText(e) {
    return [e.key, e.content, e.category, e.file, (e.tags || []).join(" "), e.id].join("\n").toLowerCase();
  }

  function markRendered() {
    document.body.dataset.version = String(S.version);
    if (!firstPaint) return;
    firstPaint = false;
    requestAnimationFrame(function () {
      TV.firstRenderMs = performance.now();
      document.body.dataset.rendered = "1";
    });
  }

  // -- drawing -------------------------------------------------------------------------
  function draw() {
    svg.classed("big", S.nodes.length > 800);
    linkSel = linkLayer.selectAll("line.link").data(S.links, function (l) { return l.source.id + " " + l.target.id; })
      .join("line")
      .attr("class", function (l) { return "link t-" + l.type; })
      .attr("marker-end", function (l) { return l.type === "supersedes" ? "url(#arrow)" : null; });
    nodeSel = nodeLayer.selectAll("circle.node").data(S.nodes, function (n) { return n.id; })
      .join(function (enter) { return enter.append("circle").call(bindNode); })
      .attr("class", function (n) { return "node " + TV.catClass(n.e.category) + (n.fx != null ? " pinned" : ""); })
      .attr("r", TV.radius)
      .attr("data-id", function (n) { return n.id; })
      .attr("data-key", function (n) { return n.e.key; });
    paint();
  }

  function bindNode(sel) {
    sel.on("mouseenter", function (event, n) { TV.emit("hover", { node: n, event: event }); })
      .on("mousemove", function (event, n) { TV.emit("hover", { node: n, event: event }); })
      .on("mouseleave", function () { TV.emit("hover", null); })
      .on("click", function (event, n) {
        event.stopPropagation();
        if (S.pathMode) TV.pickEnd(n.id); else TV.select(n.id, { centre: true });
      })
      .on("dblclick", function (event, n) { event.stopPropagation(); TV.emit("detail", n.id); })
      .on("contextmenu", function (event, n) {
        event.preventDefault();
        n.fx = null; n.fy = null;
        d3.select(this).classed("pinned", false);
        restart(0.2);
      })
      .call(d3.drag()
        .on("start", function (event, n) { n.dragged = false; })
        .on("drag", function (event, n) {
          if (!n.dragged) {  // a plain click neither pins the node nor reheats the layout
            n.dragged = true;
            document.body.dataset.settled = "0";
            sim.alphaTarget(0.25);
            run();
          }
          n.fx = event.x; n.fy = event.y;
        })
        .on("end", function (event, n) {
          if (!n.dragged) return;
          sim.alphaTarget(0);
          d3.select(this).classed("pinned", true);
        }));
  }

  /* Positions through the SVG DOM's numeric properties (no string round trip): at
   * thousands of elements this is several times faster than setAttribute. */
  function paint() {
    var els = linkSel.nodes(), i, el, d;
    for (i = 0; i < els.length; i++) {
      el = els[i]; d = el.__data__;
      el.x1.baseVal.value = d.source.x; el.y1.baseVal.value = d.source.y;
      el.x2.baseVal.value = d.target.x; el.y2.baseVal.value = d.target.y;
    }
    els = nodeSel.nodes();
    for (i = 0; i < els.length; i++) {
      el = els[i]; d = el.__data__;
      el.cx.baseVal.value = d.x; el.cy.baseVal.value = d.y;
    }
    if (labelSel) labelSel.attr("x", function (n) { return n.x + TV.radius(n) + 3; }).attr("y", function (n) { return n.y + 4; });
  }

  function drawLabels() {
    var shown = new Set(S.path);
    if (S.selected) { shown.add(S.selected); (S.adj.get(S.selected) || []).forEach(function (id) { shown.add(id); }); }
    if (S.matches && S.matches.size <= 40) S.matches.forEach(function (id) { shown.add(id); });
    if (S.nodes.length <= 60) S.nodes.forEach(function (n) { shown.add(n.id); });
    var nodes = S.nodes.filter(function (n) { return shown.has(n.id); });
    labelSel = labelLayer.selectAll("text.node-label").data(nodes, function (n) { return n.id; })
      .join("text").attr("class", "node-label").text(function (n) { return n.e.key; });
    paint();
  }

  // -- layout --------------------------------------------------------------------------
  /* One animation frame: layout steps until the time budget is spent (a large graph
   * needs far fewer paints than steps), then one paint; stops when the layout is at rest. */
  function frame() {
    var big = S.nodes.length > 800, budget = big ? BIG_FRAME_BUDGET_MS : FRAME_BUDGET_MS;
    var start = performance.now(), most = big ? 50 : 2, done = 0;
    while (done < most && hot() && performance.now() - start < budget) {
      sim.tick();
      done += 1;
    }
    paint();
    if (hot()) {
      requestAnimationFrame(frame);
      return;
    }
    running = false;
    if (!userZoomed) TV.fit(true);
    setTimeout(function () { if (!running) document.body.dataset.settled = "1"; }, 600);
  }

  function hot() { return sim.alpha() >= sim.alphaMin() || sim.alphaTarget() >= sim.alphaMin(); }

  function run() {
    document.body.dataset.settled = "0";
    if (running) return;
    running = true;
    requestAnimationFrame(frame);
  }

  function restart(alpha) {
    sim.alpha(alpha);
    run();
  }

  function simulate(first) {
    var n = S.nodes.length, p = S.physics;
    sim.nodes(S.nodes)
      .force("link", d3.forceLink(S.links).distance(p.distance))
      .force("charge", d3.forceManyBody().strength(p.charge).theta(0.9).distanceMax(600))
      .force("x", d3.forceX(0).strength(p.gravity))
      .force("y", d3.forceY(0).strength(p.gravity))
      .alphaDecay(n > 1500 ? 0.06 : 0.0228);
    if (first) {
      var warm = Math.min(300, Math.floor(20000 / Math.max(1, n)));  // small graphs start settled
      for (var i = 0; i < warm; i++) sim.tick();
      paint();
      TV.fit(false);
      restart(Math.max(sim.alpha(), 0.002));
    } else {
      restart(0.3);
    }
  }

  TV.setPhysics = function (changes) {
    Object.assign(S.physics, changes);
    var p = S.physics;
    sim.force("link").distance(p.distance);
    sim.force("charge").strength(p.charge);
    sim.force("x").strength(p.gravity);
    sim.force("y").strength(p.gravity);
    restart(0.5);
  };

  // -- zoom ----------------------------------------------------------------------------
  TV.zoomBy = function (factor) { svg.transition().duration(250).call(zoom.scaleBy, factor); };

  TV.fit = function (animate) {
    if (!S.nodes.length) return;
    var box = svg.node().getBoundingClientRect();
    var xs = S.nodes.map(function (n) { return n.x; }), ys = S.nodes.map(function (n) { return n.y; });
    var x0 = d3.min(xs), x1 = d3.max(xs), y0 = d3.min(ys), y1 = d3.max(ys);
    var w = Math.max(x1 - x0, 1) + 80, h = Math.max(y1 - y0, 1) + 80;
    var k = Math.min(1.6, Math.max(0.02, Math.min(box.width / w, box.height / h)));
    var t = d3.zoomIdentity.translate(box.width / 2, box.height / 2).scale(k).translate(-(x0 + x1) / 2, -(y0 + y1) / 2);
    (animate ? svg.transition().duration(500) : svg).call(zoom.transform, t);
  };

  /* Centre a node in the part of the stage the detail panel leaves visible. */
  function centreOn(n) {
    var box = svg.node().getBoundingClientRect(), panel = document.getElementById("detail");
    var covered = panel && !panel.hidden ? panel.getBoundingClientRect().width + 16 : 0;
    svg.transition().duration(400).call(zoom.translateTo, n.x, n.y, [(box.width - covered) / 2, box.height / 2]);
  }
  TV.centre = function (id) { var n = TV.node(id); if (n) centreOn(n); };

  // -- selection -----------------------------------------------------------------------
  TV.select = function (id, opts) {
    opts = opts || {};
    S.selected = id && S.byId.has(id) ? id : null;
    if (!nodeSel) return;
    var sel = S.selected, near = sel ? new Set(S.adj.get(sel)) : null;
    nodeSel.classed("sel", function (n) { return n.id === sel; })
      .classed("nb", function (n) { return !!near && near.has(n.id); })
      .classed("dim", function (n) { return !!near && n.id !== sel && !near.has(n.id); });
    linkSel.classed("hl", function (l) { return !!sel && (l.source.id === sel || l.target.id === sel); })
      .classed("dim", function (l) { return !!sel && l.source.id !== sel && l.target.id !== sel; });
    drawLabels();
    if (sel && opts.centre) centreOn(S.byId.get(sel));
    if (!opts.quiet) TV.emit("select", sel);
  };

  // -- search --------------------------------------------------------------------------
  function applyMatches() {
    var m = S.matches;
    if (!nodeSel) return;
    nodeSel.classed("match", function (n) { return !!m && m.has(n.id); })
      .classed("faded", function (n) { return !!m && !m.has(n.id); });
    linkSel.classed("faded", function (l) { return !!m && !(m.has(l.source.id) && m.has(l.target.id)); });
    drawLabels();
    TV.emit("search", m);
  }

  TV.search = function (query, keep) {
    S.query = query || "";
    var q = S.query.trim().toLowerCase();
    if (keep && !q && S.matchLabel) { applyMatches(); return; }  // a highlight set from outside
    S.matchLabel = "";
    S.matches = q ? new Set(S.nodes.filter(function (n) { return n.text.indexOf(q) >= 0; }).map(function (n) { return n.id; })) : null;
    applyMatches();
  };

  TV.highlightIds = function (ids, label) {
    S.matches = new Set(ids.filter(function (id) { return S.byId.has(id); }));
    S.matchLabel = label || "";
    applyMatches();
  };

  // -- path finder ---------------------------------------------------------------------
  TV.setPathMode = function (on) {
    S.pathMode = !!on;
    S.ends = [];
    TV.showPath([]);
    TV.emit("pathmode", S.pathMode);
  };

  TV.pickEnd = function (id) {
    if (S.ends.length >= 2) S.ends = [];
    S.ends.push(id);
    if (S.ends.length === 2) TV.findPath(S.ends[0], S.ends[1]);
    else TV.showPath([]);
  };

  /* Breadth-first search visiting neighbours in sorted id order: the same algorithm and
   * tie-break as the engine's LinkGraph.shortest_path, over the same edges. */
  TV.bfs = function (start, goal) {
    if (!S.adj.has(start) || !S.adj.has(goal)) return [];
    var parent = new Map([[start, start]]), queue = [start], head = 0;
    while (head < queue.length) {
      var node = queue[head++];
      if (node === goal) {
        var path = [node];
        while (node !== start) { node = parent.get(node); path.push(node); }
        return path.reverse();
      }
      var next = S.adj.get(node);
      for (var i = 0; i < next.length; i++) {
        if (!parent.has(next[i])) { parent.set(next[i], node); queue.push(next[i]); }
      }
    }
    return [];
  };

  TV.findPath = function (from, to) {
    var answer = TV.source && TV.source.path ? TV.source.path(from, to) : Promise.resolve(TV.bfs(from, to));
    S.pathPending = true;
    TV.emit("path", null);
    return answer.then(function (ids) { S.pathPending = false; TV.showPath(ids); },
      function (err) { S.pathPending = false; TV.showPath([]); TV.emit("path-error", String(err && err.message || err)); });
  };

  TV.showPath = function (ids) {
    S.path = ids || [];
    var on = new Set(S.path), pairs = new Set();
    for (var i = 1; i < S.path.length; i++) { pairs.add(S.path[i - 1] + " " + S.path[i]); pairs.add(S.path[i] + " " + S.path[i - 1]); }
    var ends = new Set(S.ends);
    if (!nodeSel) return;
    nodeSel.classed("on-path", function (n) { return on.has(n.id); })
      .classed("end", function (n) { return ends.has(n.id) && !on.has(n.id); });
    linkSel.classed("on-path", function (l) { return pairs.has(l.source.id + " " + l.target.id); });
    drawLabels();
    TV.emit("path", S.path);
  };

  // -- picture export ------------------------------------------------------------------
  TV.svgText = function () {
    var css = getComputedStyle(document.documentElement);
    var v = function (name) { return css.getPropertyValue(name).trim(); };
    var clone = svg.node().cloneNode(true);
    var pad = 40, xs = S.nodes.map(function (n) { return n.x; }), ys = S.nodes.map(function (n) { return n.y; });
    var x0 = (d3.min(xs) || 0) - pad, y0 = (d3.min(ys) || 0) - pad;
    var w = (d3.max(xs) || 0) + pad - x0, h = (d3.max(ys) || 0) + pad - y0;
    clone.querySelector(".viewport").removeAttribute("transform");
    clone.setAttribute("viewBox", [x0, y0, w, h].join(" "));
    clone.setAttribute("width", String(Math.round(w)));
    clone.setAttribute("height", String(Math.round(h)));
    var style = document.createElementNS("http://www.w3.org/2000/svg", "style");
    var rules = [
      ".node{stroke:" + v("--bg") + ";stroke-width:1.2}",
      ".link{stroke:" + v("--edge") + ";stroke-width:1;stroke-opacity:.75}",
      ".link.t-supersedes{stroke:" + v("--edge-typed") + ";stroke-dasharray:5 3}",
      ".node.sel,.node.nb{stroke:" + v("--hl") + ";stroke-width:2.5}",
      ".node.match{stroke:" + v("--match") + ";stroke-width:3}",
      ".node.on-path,.link.on-path{stroke:" + v("--path") + ";stroke-width:4;stroke-opacity:1}",
      ".dim,.faded{opacity:.16}",
      ".node-label{fill:" + v("--fg") + ";font:11px sans-serif}",
      "#arrow path{fill:" + v("--edge-typed") + "}",
    ];
    CATEGORIES.concat(["other"]).forEach(function (c) { rules.push(".cat-" + c + "{fill:" + v("--cat-" + c) + "}"); });
    style.textContent = rules.join("\n");
    var bg = document.createElementNS("http://www.w3.org/2000/svg", "rect");
    ["x", "y", "width", "height"].forEach(function (a, i) { bg.setAttribute(a, String([x0, y0, w, h][i])); });
    bg.setAttribute("fill", v("--bg"));
    clone.insertBefore(bg, clone.firstChild);
    clone.insertBefore(style, clone.firstChild);
    return new XMLSerializer().serializeToString(clone);
  };
})();
