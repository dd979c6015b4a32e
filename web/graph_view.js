/* grappi's network drawing (used by report.js): a report view's nodes and edges drawn with
 * cytoscape.js, readable at real sizes.
 * - Layouts: fcose (force-directed, node sizes and labels taken into account) by default, a tree
 *   from the start node (the ontology of `ground`), rings by role, circle, grid.
 * - Labels never overlap: after every layout, zoom or filter change, labels are placed by
 *   importance (the start node first, then seeds, answers, members of ranked items, then by
 *   score and degree) and a label that would overlap one already placed is not shown. Labels
 *   keep one size on screen, so zooming in shows more of them.
 * - Edges: coloured by STRING evidence channel (the strongest, in the colours of STRING's
 *   viewer) when the edge has channels, else by relation; width by score.
 * - Filters: relations, a minimum edge score, context nodes shown / faded / hidden, only the
 *   ranked items; search a node; PNG and SVG export of the current view.
 * Every text from the data is set with textContent (never parsed as HTML). */
(function () {
  'use strict';

  var ROLE_COLOURS = {
    root: '#d62728', seed: '#1f77b4', answer: '#2ca02c', path: '#ff7f0e', cited: '#9467bd', entity: '#17becf',
    context: '#b0b0b0'
  };
  var ROLE_NAMES = {
    root: 'start', seed: 'question entity / seed', answer: 'answer entity', path: 'on a ranked item',
    cited: 'cited', entity: 'entity', context: 'context'
  };
  var ROLE_ORDER = ['root', 'seed', 'answer', 'path', 'cited', 'entity', 'context'];
  // STRING's evidence channels in the colours of STRING's network viewer.
  var CHANNELS = [
    ['experimental', '#d42fd2', 'experiments'], ['database', '#20b8c4', 'curated databases'],
    ['textmining', '#a7c520', 'text mining'], ['coexpression', '#333333', 'co-expression'],
    ['neighborhood', '#2ca02c', 'gene neighbourhood'], ['fusion', '#e4281b', 'gene fusion'],
    ['cooccurrence', '#2b4fd8', 'gene co-occurrence'], ['homology', '#a9a3f0', 'homology']
  ];
  // Clusters (a view's "clusters", each node's "cluster"): ColorBrewer's Paired, as grappi cluster's CX2, grey past
  // twelve.
  var CLUSTER_PALETTE = ['#1F78B4', '#33A02C', '#E31A1C', '#FF7F00', '#6A3D9A', '#B15928', '#A6CEE3', '#B2DF8A',
                         '#FB9A99', '#FDBF6F', '#CAB2D6', '#FFFF99'];
  function clusterColour(c) { return typeof c === 'number' && c >= 0 && c < CLUSTER_PALETTE.length ? CLUSTER_PALETTE[c] : '#BDBDBD'; }
  var RELATION_PALETTE = ['#4e79a7', '#59a14f', '#e15759', '#b07aa1', '#76b7b2', '#edc948', '#9c755f', '#ff9da7', '#bab0ac', '#f28e2b'];
  var LABEL_PX = 11;   // label size on screen
  var LARGE = 300;     // nodes from which edges are drawn straight (haystack) and the layout is quicker

  function finite(x) { return typeof x === 'number' && isFinite(x); }
  function arrayOf(x) { return Array.isArray(x) ? x : []; }

  // The channel an edge is drawn in: its strongest STRING channel ("_transferred" counts as its
  // channel); null without channels.
  function strongestChannel(channels) {
    if (!channels || typeof channels !== 'object') return null;
    var best = null, bestScore = -1;
    Object.keys(channels).forEach(function (k) {
      var base = String(k).replace(/_transferred$/, '');
      var s = channels[k];
      if (!finite(s)) return;
      if (!CHANNELS.some(function (c) { return c[0] === base; })) return;
      if (s > bestScore) { bestScore = s; best = base; }
    });
    return best;
  }
  function channelColour(name) {
    for (var i = 0; i < CHANNELS.length; ++i) if (CHANNELS[i][0] === name) return CHANNELS[i][1];
    return '#888';
  }

  function download(blob, name) {
    var url = URL.createObjectURL(blob);
    var a = document.createElement('a');
    a.href = url;
    a.download = name;
    document.body.appendChild(a);
    a.click();
    document.body.removeChild(a);
    setTimeout(function () { URL.revokeObjectURL(url); }, 1000);
  }
  function xmlText(s) {
    return String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  }

  // A tree from `root` (breadth-first over the edges, either direction): one column per depth,
  // each column's nodes in the order of their parents, labels to the right. Nodes out of reach
  // go in a last column.
  function treePositions(cy, root) {
    var depth = {}, parentOrder = {}, columns = [];
    var queue = [root];
    depth[root.id()] = 0;
    parentOrder[root.id()] = 0;
    while (queue.length) {
      var n = queue.shift();
      var d = depth[n.id()];
      (columns[d] = columns[d] || []).push(n);
      var order = columns[d].length - 1;
      n.connectedEdges(':visible').connectedNodes(':visible').forEach(function (m) {
        if (depth[m.id()] !== undefined) return;
        depth[m.id()] = d + 1;
        parentOrder[m.id()] = order;
        queue.push(m);
      });
    }
    var rest = cy.nodes(':visible').filter(function (m) { return depth[m.id()] === undefined; });
    if (rest.length) columns.push(rest.toArray());
    var positions = {}, x = 0;
    columns.forEach(function (col) {
      col.sort(function (a, b) { return (parentOrder[a.id()] || 0) - (parentOrder[b.id()] || 0); });
      var width = 0;
      col.forEach(function (n, i) {
        positions[n.id()] = { x: x, y: i * 24 - col.length * 12 };
        width = Math.max(width, String(n.data('label')).length * 6.5);
      });
      x += Math.min(width, 260) + 40;
    });
    return positions;
  }

  function draw(container, view) {
    var nodes = arrayOf(view.nodes), edges = arrayOf(view.edges), items = arrayOf(view.items);
    var byId = {};
    nodes.forEach(function (n) { byId[n.id] = n; });
    var relations = [];
    edges.forEach(function (e) { if (relations.indexOf(e.relation) < 0) relations.push(e.relation); });
    var relColour = {};
    relations.forEach(function (r, i) { relColour[r] = RELATION_PALETTE[i % RELATION_PALETTE.length]; });
    var inItems = {}, firstItem = {};  // (id -> the best rank of an item holding it)
    items.forEach(function (it, i) {
      arrayOf(it.nodes).concat(arrayOf(it.edges)).forEach(function (id) {
        inItems[id] = true;
        if (firstItem[id] === undefined) firstItem[id] = i;
      });
    });

    var maxScore = 0;
    nodes.forEach(function (n) { if (finite(n.score) && n.score > maxScore) maxScore = n.score; });
    var degree = {};
    edges.forEach(function (e) { degree[e.source] = (degree[e.source] || 0) + 1; degree[e.target] = (degree[e.target] || 0) + 1; });
    var large = nodes.length > LARGE;
    var elements = [], channelsUsed = {}, relationsUncoloured = {};
    nodes.forEach(function (n) {
      var s = finite(n.score) && maxScore > 0 ? Math.max(0, n.score / maxScore) : 0.3;
      var role = ROLE_COLOURS[n.role] ? n.role : 'context';
      elements.push({ group: 'nodes', classes: role === 'root' ? 'root' : '', data: {
        id: n.id, label: String(n.label === undefined || n.label === null ? n.id : n.label), role: role,
        ctx: role === 'context' && !inItems[n.id],  // (context: on no ranked item)
        colour: ROLE_COLOURS[role], roleColour: ROLE_COLOURS[role],
        cluster: typeof n.cluster === 'number' ? n.cluster : -1, size: (large ? 10 : 14) + (large ? 14 : 26) * s,
        ring: { root: 5, seed: 4, answer: 4, path: 3, cited: 2, entity: 2 }[role] || 1,
        rank: ROLE_ORDER.indexOf(role), item: firstItem[n.id] === undefined ? items.length : firstItem[n.id],
        score: finite(n.score) ? n.score : -1, degree: degree[n.id] || 0 } });
    });
    edges.forEach(function (e) {
      if (!byId[e.source] || !byId[e.target]) return;
      var c = finite(e.score) ? Math.max(0, Math.min(1, e.score)) : 0.5;
      var channel = strongestChannel(e.channels);
      if (channel) channelsUsed[channel] = true; else relationsUncoloured[e.relation] = true;
      elements.push({ group: 'edges', data: {
        id: e.id, source: e.source, target: e.target, relation: e.relation, score: finite(e.score) ? e.score : null,
        colour: channel ? channelColour(channel) : relColour[e.relation],
        width: large ? 0.3 + 1.5 * c : 0.6 + 4 * c, opacity: large ? 0.12 + 0.4 * c : 0.35 + 0.55 * c,
        arrow: e.directed ? 'triangle' : 'none' } });
    });

    var cy = cytoscape({
      container: container,
      elements: elements,
      wheelSensitivity: 0.3,
      minZoom: 0.02,
      maxZoom: 8,
      style: [
        { selector: 'node', style: {
          'background-color': 'data(colour)', width: 'data(size)', height: 'data(size)', label: 'data(label)',
          'font-size': LABEL_PX, 'text-valign': 'bottom', 'text-margin-y': 2, color: '#1d1d1f',
          'text-background-color': '#ffffff', 'text-background-opacity': 0.75, 'text-background-padding': 1,
          'border-width': 0.5, 'border-color': '#ffffff', 'z-index': 2 } },
        { selector: 'node.root', style: { 'z-index': 100, 'font-weight': 'bold', 'text-background-opacity': 0.95, 'border-width': 2, 'border-color': '#000' } },
        { selector: 'edge', style: {
          'line-color': 'data(colour)', width: 'data(width)', opacity: 'data(opacity)', 'curve-style': large ? 'haystack' : 'bezier',
          'target-arrow-shape': 'data(arrow)', 'target-arrow-color': 'data(colour)' } },
        // (a labelled node is drawn above the unlabelled ones: its label stays readable)
        { selector: 'node.nolabel', style: { label: '', 'z-index': 1 } },
        { selector: 'node.ctxfade', style: { opacity: 0.3 } },
        { selector: 'edge.ctxfade', style: { opacity: 0.06 } },
        { selector: '.hidden', style: { display: 'none' } },
        { selector: '.faded', style: { opacity: large ? 0.05 : 0.1 } },
        { selector: 'node.highlighted', style: { 'border-width': 3, 'border-color': '#000', 'z-index': 10, 'font-weight': 'bold', opacity: 1 } },
        { selector: 'edge.highlighted', style: { 'line-color': '#000', 'target-arrow-color': '#000', opacity: 1, width: 4, 'z-index': 10 } },
        { selector: 'edge.onpath', style: { 'line-color': '#000', 'target-arrow-color': '#000', opacity: 0.9, width: 3 } }
      ]
    });
    var root = cy.nodes('.root').first();

    // ---- state and filters ------------------------------------------------------------------
    var state = {
      layout: view.layout === 'tree' && root.length ? 'tree' : (hasFcose() ? 'fcose' : 'cose'),
      relations: {}, minScore: 0, context: 'shown', itemsOnly: false
    };
    relations.forEach(function (r) { state.relations[r] = true; });
    // Colouring: by role, or by cluster when the view has clusters (and asks for it).
    var clusters = arrayOf(view.clusters).filter(function (c) { return c && typeof c.id === 'number'; })
      .map(function (c) { return { id: c.id, size: c.size, label: String(c.label || ''), colour: clusterColour(c.id) }; });
    function setColouring(mode) {
      state.colourBy = mode === 'cluster' && clusters.length ? 'cluster' : 'role';
      cy.batch(function () {
        cy.nodes().forEach(function (n) {
          n.data('colour', state.colourBy === 'cluster' ? clusterColour(n.data('cluster')) : n.data('roleColour'));
        });
      });
    }
    setColouring(view.colour_by);
    var contextCount = cy.nodes('[?ctx]').length;
    // The ranked items' subgraph first: context faded when there is something ranked among many nodes.
    if (contextCount && items.length && nodes.length > 30) state.context = 'faded';

    // (cytoscape-fcose registers itself when it loads after cytoscape.js; see html_report.cpp)
    function hasFcose() { return typeof window.cytoscapeFcose !== 'undefined'; }

    function applyFilters(quiet) {
      cy.batch(function () {
        cy.edges().forEach(function (e) {
          var d = e.data();
          var hide = !state.relations[d.relation] || (state.minScore > 0 && (d.score === null || d.score < state.minScore)) ||
                     (state.itemsOnly && !inItems[d.id]);
          e.toggleClass('hidden', hide);
          e.toggleClass('ctxfade', !hide && state.context === 'faded' && (e.source().data('ctx') || e.target().data('ctx')));
        });
        cy.nodes().forEach(function (n) {
          var ctx = n.data('ctx');
          var hide = (ctx && state.context === 'hidden') || (state.itemsOnly && !inItems[n.id()] && !n.hasClass('root'));
          n.toggleClass('hidden', hide);
          n.toggleClass('ctxfade', !hide && ctx && state.context === 'faded');
        });
      });
      if (!quiet) placeLabels();
    }

    // ---- labels -----------------------------------------------------------------------------
    var order = cy.nodes().toArray().sort(function (a, b) {
      var x = a.data(), y = b.data();
      return x.rank - y.rank || x.item - y.item || y.score - x.score || y.degree - x.degree || (x.label < y.label ? -1 : x.label > y.label ? 1 : 0);
    });
    // (a node of a ranked item whose label does not fit below it tries above, right, left and the corners)
    var SIDES = [['bottom', 'center'], ['top', 'center'], ['center', 'right'], ['center', 'left'],
                 ['bottom', 'right'], ['bottom', 'left'], ['top', 'right'], ['top', 'left']];
    function sideStyle(eles, side, z) {
      eles.style({ 'text-valign': side[0], 'text-halign': side[1],
                   'text-margin-x': side[1] === 'right' ? 3 / z : side[1] === 'left' ? -3 / z : 0,
                   'text-margin-y': side[0] === 'bottom' ? 2 / z : side[0] === 'top' ? -2 / z : 0 });
    }
    function placeLabels() {
      var z = cy.zoom();
      placedAt = z;
      var placed = [];
      var pad = 1 / z;
      // (in a tree, labels to the right of their nodes: a column's labels one under another)
      var tree = state.layout === 'tree';
      var sides = tree ? [['center', 'right'], ['bottom', 'center'], ['top', 'center']] : SIDES;
      cy.batch(function () {
        cy.nodes().style('font-size', LABEL_PX / z).removeClass('nolabel');
        sideStyle(cy.nodes(), sides[0], z);
      });
      // (the start first, then what is highlighted, then by importance; faded nodes unlabelled)
      var now = order.filter(function (n) { return n.hasClass('root'); })
        .concat(order.filter(function (n) { return !n.hasClass('root') && n.hasClass('highlighted'); }))
        .concat(order.filter(function (n) { return !n.hasClass('root') && !n.hasClass('highlighted'); }));
      var boxes = now.map(function (n) {
        if (n.hasClass('hidden') || n.hasClass('ctxfade') || n.hasClass('faded')) return null;
        return n.boundingBox({ includeNodes: false, includeEdges: false, includeLabels: true, includeOverlays: false });
      });
      // A label is shown when it overlaps no label shown before it nor the body of a labelled
      // node, and its node's body covers no label shown (labelled nodes are drawn above the
      // others, so nothing else can cover a label).
      var off = [], bodies = [];
      function hits(b, list) {
        for (var k = 0; k < list.length; ++k) {
          var p = list[k];
          if (b.x1 < p.x2 + pad && p.x1 < b.x2 + pad && b.y1 < p.y2 + pad && p.y1 < b.y2 + pad) return true;
        }
        return false;
      }
      now.forEach(function (n, i) {
        var b = boxes[i];
        if (!b || !(b.w > 0)) { off.push(n); return; }
        var body = n.boundingBox({ includeNodes: true, includeEdges: false, includeLabels: false, includeOverlays: false });
        if (hits(body, placed)) { off.push(n); return; }
        var tries = n.data('ctx') ? 1 : sides.length;
        for (var t = 0; t < tries; ++t) {
          if (t > 0) {
            sideStyle(n, sides[t], z);
            b = n.boundingBox({ includeNodes: false, includeEdges: false, includeLabels: true, includeOverlays: false });
          }
          if (!hits(b, placed) && !hits(b, bodies)) {
            placed.push(b);
            bodies.push(body);
            return;
          }
        }
        sideStyle(n, sides[0], z);
        off.push(n);
      });
      cy.batch(function () { off.forEach(function (n) { n.addClass('nolabel'); }); });
      api.labelRuns++;  // (the browser test waits on it)
    }
    var zoomTimer = null, placedAt = null;  // (the zoom the labels were last placed at)
    cy.on('zoom', function () {
      clearTimeout(zoomTimer);
      zoomTimer = setTimeout(function () { if (cy.zoom() !== placedAt) placeLabels(); }, 120);
    });

    // ---- layouts ----------------------------------------------------------------------------
    function layoutOptions(name) {
      var visible = cy.elements(':visible');
      if (name === 'fcose')
        return { name: 'fcose', eles: visible, animate: false, randomize: true, quality: large ? 'draft' : 'default',
                 nodeDimensionsIncludeLabels: !large, packComponents: true,
                 // (the ranked items' nodes push harder and their edges are longer: room for their labels)
                 nodeRepulsion: function (n) { return n.data('ctx') ? (large ? 6000 : 4500) : (large ? 14000 : 25000); },
                 idealEdgeLength: function (e) {
                   var core = !e.source().data('ctx') && !e.target().data('ctx');
                   return core ? (large ? 100 : 120) : (large ? 70 : 60);
                 },
                 nodeSeparation: 90, numIter: large ? 800 : 2500, fit: true, padding: 20 };
      if (name === 'tree') return { name: 'preset', eles: visible, positions: treePositions(cy, root.length ? root : cy.nodes(':visible').first()), fit: true, padding: 20 };
      if (name === 'concentric')
        return { name: 'concentric', eles: visible, concentric: function (n) { return n.data('ring'); }, levelWidth: function () { return 1; },
                 minNodeSpacing: 6, animate: false, fit: true, padding: 20 };
      if (name === 'cose')
        return { name: 'cose', eles: visible, animate: false, nodeDimensionsIncludeLabels: !large, nodeRepulsion: function () { return 8000; },
                 idealEdgeLength: function () { return 60; }, numIter: 600, fit: true, padding: 20 };
      return { name: name, eles: visible, animate: false, fit: true, padding: 20, avoidOverlap: true };
    }
    function runLayout(name) {
      state.layout = name;
      if (!cy.nodes().length) return;
      var t0 = performance.now();
      // (every label present while the layout makes room for them)
      cy.batch(function () { cy.nodes().style('font-size', LABEL_PX).removeClass('nolabel'); });
      var l = cy.layout(layoutOptions(name));
      // The same view gives the same picture: the layout's random start from a fixed seed.
      var random = Math.random, seed = 0x9e3779b9;
      Math.random = function () {
        seed = (seed + 0x6d2b79f5) | 0;
        var t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
        t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
      };
      try { l.run(); } finally { Math.random = random; }
      if (name === 'fcose' || name === 'cose') separate();
      api.layoutSeconds = (performance.now() - t0) / 1000;
      if (name === 'tree' && root.length) markTreePath();
      placeLabels();
    }
    // Force layouts may leave nodes on top of one another (many edges pull them together): the
    // nodes of ranked items are pushed apart until none covers another, with room for a label
    // between them (a few rounds; context nodes stay where the layout put them).
    function separate() {
      var ns = cy.nodes(':visible').filter(function (n) { return !n.data('ctx'); }).toArray();
      var gap = large ? 4 : 14;
      // (plain arrays while pushing; the positions written back once)
      var x = [], y = [], r = [], fixed = [];
      ns.forEach(function (n, i) { var p = n.position(); x[i] = p.x; y[i] = p.y; r[i] = n.width() / 2; fixed[i] = n.hasClass('root'); });
      for (var round = 0; round < 30; ++round) {
        var moved = false;
        for (var i = 0; i < ns.length; ++i)
          for (var j = i + 1; j < ns.length; ++j) {
            var need = r[i] + r[j] + gap, dx = x[j] - x[i], dy = y[j] - y[i];
            if (Math.abs(dx) >= need || Math.abs(dy) >= need) continue;
            var d = Math.sqrt(dx * dx + dy * dy);
            if (d >= need) continue;
            if (d < 1e-6) { dx = 1; dy = 0; d = 1; }
            var push = (need - d) / 2 + 0.01, ux = dx / d * push, uy = dy / d * push;
            // (the start node stays put: the other one moves the whole way)
            if (!fixed[i]) { x[i] -= fixed[j] ? 2 * ux : ux; y[i] -= fixed[j] ? 2 * uy : uy; }
            if (!fixed[j]) { x[j] += fixed[i] ? 2 * ux : ux; y[j] += fixed[i] ? 2 * uy : uy; }
            moved = true;
          }
        if (!moved) break;
      }
      cy.batch(function () { ns.forEach(function (n, i) { n.position({ x: x[i], y: y[i] }); }); });
      cy.fit(cy.elements(':visible'), 20);
    }
    // In a tree, the path from the start to the chosen term (role "answer").
    function markTreePath() {
      cy.edges().removeClass('onpath');
      var target = cy.nodes('[role = "answer"]').first();
      if (!target.length || !root.length) return;
      var d = cy.elements(':visible').dijkstra({ root: root, directed: false });
      var path = d.pathTo(target);
      if (path && path.length) path.edges().addClass('onpath');
    }

    // ---- controls ---------------------------------------------------------------------------
    function svgText() {
      var z = cy.zoom(), pan = cy.pan();
      var w = container.clientWidth || 800, h = container.clientHeight || 600;
      var out = ['<svg xmlns="http://www.w3.org/2000/svg" width="' + w + '" height="' + h + '" viewBox="0 0 ' + w + ' ' + h + '">',
                 '<rect width="100%" height="100%" fill="#ffffff"/>'];
      function px(p) { return { x: p.x * z + pan.x, y: p.y * z + pan.y }; }
      function opacityOf(e) { return Number(e.style('opacity')); }
      cy.edges(':visible').forEach(function (e) {
        var a = px(e.source().position()), b = px(e.target().position());
        out.push('<line class="edge" x1="' + a.x.toFixed(1) + '" y1="' + a.y.toFixed(1) + '" x2="' + b.x.toFixed(1) + '" y2="' + b.y.toFixed(1) +
                 '" stroke="' + xmlText(e.style('line-color')) + '" stroke-width="' + (parseFloat(e.style('width')) * z).toFixed(2) +
                 '" stroke-opacity="' + opacityOf(e).toFixed(2) + '"><title>' + xmlText(e.data('relation')) + '</title></line>');
      });
      cy.nodes(':visible').forEach(function (n) {
        var p = px(n.position()), r = parseFloat(n.style('width')) * z / 2;
        out.push('<circle class="node" cx="' + p.x.toFixed(1) + '" cy="' + p.y.toFixed(1) + '" r="' + r.toFixed(2) + '" fill="' +
                 xmlText(n.style('background-color')) + '" fill-opacity="' + opacityOf(n).toFixed(2) + '"><title>' + xmlText(n.data('label')) + '</title></circle>');
      });
      // (each label where the drawing puts it: its box's centre, whichever side of its node)
      cy.nodes(':visible').forEach(function (n) {
        if (n.hasClass('nolabel')) return;
        var b = n.renderedBoundingBox({ includeNodes: false, includeEdges: false, includeLabels: true, includeOverlays: false });
        out.push('<text class="label" x="' + ((b.x1 + b.x2) / 2).toFixed(1) + '" y="' + ((b.y1 + b.y2) / 2).toFixed(1) +
                 '" font-family="sans-serif" font-size="' + LABEL_PX + '" text-anchor="middle" dominant-baseline="central"' +
                 (n.hasClass('root') ? ' font-weight="bold"' : '') + '>' + xmlText(n.data('label')) + '</text>');
      });
      out.push('</svg>');
      return out.join('\n') + '\n';
    }
    var base = 'grappi-' + (view.kind || 'network');
    function exportPng() { download(cy.png({ output: 'blob', bg: '#ffffff', full: false, scale: 2 }), base + '.png'); }
    function exportSvg() { download(new Blob([svgText()], { type: 'image/svg+xml' }), base + '.svg'); }
    function find(text) {
      var q = String(text || '').trim().toLowerCase();
      if (!q) return null;
      var hit = null;
      cy.nodes().forEach(function (n) { if (!hit && String(n.data('label')).toLowerCase() === q) hit = n; });
      if (!hit) cy.nodes().forEach(function (n) { if (!hit && String(n.data('label')).toLowerCase().indexOf(q) === 0) hit = n; });
      return hit;
    }

    var api = {
      cy: cy, state: state, layoutSeconds: 0, labelRuns: 0,
      setLayout: runLayout,
      setRelation: function (r, on) { state.relations[r] = !!on; applyFilters(); },
      setMinScore: function (s) { state.minScore = Number(s) || 0; applyFilters(); },
      setContext: function (mode) { state.context = mode; applyFilters(); },
      setItemsOnly: function (on) { state.itemsOnly = !!on; applyFilters(); },
      setColouring: setColouring, clusters: clusters,
      placeLabels: placeLabels, svgText: svgText, exportPng: exportPng, exportSvg: exportSvg, find: find,
      // What the legend and the controls offer.
      roles: ROLE_ORDER.filter(function (r) { return cy.nodes('[role = "' + r + '"]').length > 0; }),
      channels: CHANNELS.filter(function (c) { return channelsUsed[c[0]]; }).map(function (c) { return { name: c[0], colour: c[1], label: c[2] }; }),
      relations: relations.map(function (r) { return { name: r, colour: relColour[r], drawn: !!relationsUncoloured[r] }; }),
      hasScores: edges.some(function (e) { return finite(e.score); }),
      contextCount: contextCount, itemCount: items.length
    };
    applyFilters(true);  // (the layout places the labels)
    runLayout(state.layout);
    return api;
  }

  window.GrappiGraph = { draw: draw, roleColours: ROLE_COLOURS, roleNames: ROLE_NAMES, clusterColour: clusterColour, download: download };
})();
