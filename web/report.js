/* grappi's report renderer: draws a result's view (nodes, edges, ranked items; see
 * include/grappi/html_report.hpp) with cytoscape.js, lists the items lazily, and shows an item's,
 * node's or edge's details on click. Used by the self-contained HTML reports and by the page of
 * `grappi serve`. Every text from the data is set with textContent (never parsed as HTML). */
(function () {
  'use strict';

  var PAGE = 50;  // items rendered at a time

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function fmt(x, digits) {
    if (typeof x !== 'number' || !isFinite(x)) return '';
    return x.toFixed(digits === undefined ? 3 : digits);
  }
  function pubmedLink(pmid) {
    var a = el('a', 'pmid', 'PMID ' + pmid);
    a.href = 'https://pubmed.ncbi.nlm.nih.gov/' + encodeURIComponent(String(pmid)) + '/';
    a.target = '_blank';
    a.rel = 'noopener noreferrer';
    return a;
  }
  function offlineBadge(view) {
    return el('span', 'offline-badge', view.offline_label || 'not written by a language model');
  }

  function objects(list) {
    return Array.isArray(list) ? list.filter(function (x) { return x && typeof x === 'object'; }) : [];
  }
  function arrayOf(x) { return Array.isArray(x) ? x : []; }

  function render(root, input, options) {
    options = options || {};
    // Only well-formed parts are drawn: a view made elsewhere may hold anything.
    var view = Object.assign({}, input, { nodes: objects(input.nodes), edges: objects(input.edges), items: objects(input.items) });
    var digits = typeof view.score_digits === 'number' && view.score_digits >= 0 && view.score_digits <= 6 ? Math.floor(view.score_digits) : 3;
    while (root.firstChild) root.removeChild(root.firstChild);
    var nodesById = {}, edgesById = {};
    (view.nodes || []).forEach(function (n) { nodesById[n.id] = n; });
    (view.edges || []).forEach(function (e) { edgesById[e.id] = e; });

    var main = el('div', 'report-main');
    var graphPane = el('section', 'graph-pane');
    var graph = el('div', 'graph');
    graph.setAttribute('role', 'img');
    graph.setAttribute('aria-label', 'network of ' + (view.nodes || []).length + ' nodes and ' + (view.edges || []).length + ' edges');
    var legend = el('div', 'legend');
    graphPane.appendChild(graph);
    graphPane.appendChild(legend);
    var side = el('aside', 'side');
    side.appendChild(el('h2', null, view.items_label || 'Ranked items'));
    var list = el('ol', 'items');
    side.appendChild(list);
    var detail = el('section', 'detail');
    detail.appendChild(el('p', 'hint', 'Click an item, a node or an edge to see its details.'));
    side.appendChild(detail);
    // The enriched terms (explore's windows), as a table under the list.
    var terms = arrayOf(view.terms).filter(function (t) { return t && t.term; });
    if (terms.length) {
      side.appendChild(el('h2', null, 'Enriched terms'));
      var tt = el('table', 'terms');
      var head = el('tr');
      ['window', 'term', 'name', 'FDR', 'observed / background'].forEach(function (h) { head.appendChild(el('th', null, h)); });
      tt.appendChild(head);
      terms.forEach(function (t) {
        var row = el('tr');
        [t.window, t.term, t.name, typeof t.fdr === 'number' ? t.fdr.toExponential(1) : '', t.observed + ' / ' + t.background]
          .forEach(function (v) { row.appendChild(el('td', null, v === undefined ? '' : String(v))); });
        tt.appendChild(row);
      });
      side.appendChild(tt);
    }
    main.appendChild(graphPane);
    main.appendChild(side);
    root.appendChild(main);

    // The drawing (graph_view.js), its controls above it and its legend below.
    var cy = null, drawing = null;
    var large = view.nodes.length > 300;
    if (typeof cytoscape === 'function' && typeof GrappiGraph === 'object' && view.nodes.length) {
      drawing = GrappiGraph.draw(graph, view);
      cy = drawing.cy;
      window.cy = cy;  // (for tests and for a person at the browser's console)
      graphPane.insertBefore(toolbar(drawing), graph);
      fillLegend(drawing);
      // (the toolbar and legend took room from the drawing)
      cy.resize();
      cy.fit(cy.elements(':visible'), 20);
      drawing.placeLabels();
      cy.on('tap', 'node', function (evt) { showNode(evt.target.id()); });
      // A tap on the background clears the selection and shows the whole network again.
      cy.on('tap', function (evt) { if (evt.target === cy) { highlight([], []); cy.fit(cy.elements(':visible'), 20); } });
      cy.on('tap', 'edge', function (evt) { showEdge(evt.target.id()); });
    } else if (view.nodes.length) {
      graph.appendChild(el('p', 'hint', 'The drawing library did not load; the ranked list and the table below hold the result.'));
    } else {
      graph.appendChild(el('p', 'hint', 'Nothing to draw.'));
    }

    function control(label, input) {
      var l = el('label', 'control');
      l.appendChild(document.createTextNode(label + ' '));
      l.appendChild(input);
      return l;
    }
    function button(text, cls, onClick) {
      var b = el('button', cls, text);
      b.type = 'button';
      b.addEventListener('click', onClick);
      return b;
    }
    // Layout, context, ranked items only, minimum score, search, fit, PNG and SVG; a control that
    // can do nothing for this view is disabled.
    function toolbar(d) {
      var bar = el('div', 'graph-toolbar no-print');
      var layout = el('select', 'layout');
      [['fcose', 'force-directed'], ['tree', 'tree from the start'], ['concentric', 'rings by role'], ['circle', 'circle'], ['grid', 'grid']].forEach(function (o) {
        var opt = el('option', null, o[1]);
        opt.value = o[0];
        if (o[0] === 'fcose' && typeof window.cytoscapeFcose === 'undefined') opt.value = 'cose';
        layout.appendChild(opt);
      });
      layout.value = d.state.layout;
      layout.addEventListener('change', function () { d.setLayout(layout.value); });
      bar.appendChild(control('Layout', layout));
      var context = el('select', 'context');
      [['shown', 'shown'], ['faded', 'faded'], ['hidden', 'hidden']].forEach(function (o) {
        var opt = el('option', null, o[1]);
        opt.value = o[0];
        context.appendChild(opt);
      });
      context.value = d.state.context;
      context.disabled = !d.contextCount;
      context.addEventListener('change', function () { d.setContext(context.value); });
      bar.appendChild(control('Context', context));
      if (d.clusters.length) {
        var colouring = el('select', 'colouring');
        [['cluster', 'cluster'], ['role', 'role']].forEach(function (o) {
          var opt = el('option', null, o[1]);
          opt.value = o[0];
          colouring.appendChild(opt);
        });
        colouring.value = d.state.colourBy;
        colouring.addEventListener('change', function () { d.setColouring(colouring.value); fillLegend(d); });
        bar.appendChild(control('Colour by', colouring));
      }
      var only = el('input', 'items-only');
      only.type = 'checkbox';
      only.disabled = !d.itemCount;
      only.addEventListener('change', function () { d.setItemsOnly(only.checked); cy.fit(cy.elements(':visible'), 20); d.placeLabels(); });
      bar.appendChild(control(view.items_label ? view.items_label + ' only' : 'Ranked items only', only));
      var score = el('input', 'min-score');
      score.type = 'range';
      score.min = '0';
      score.max = '1';
      score.step = '0.05';
      score.value = '0';
      score.disabled = !d.hasScores;
      var scoreText = el('span', 'min-score-value', '0.00');
      score.addEventListener('input', function () { scoreText.textContent = Number(score.value).toFixed(2); d.setMinScore(score.value); });
      var sc = control('Edge score \u2265', score);
      sc.appendChild(scoreText);
      bar.appendChild(sc);
      var search = el('input', 'node-search');
      search.type = 'search';
      search.placeholder = 'find a node';
      search.setAttribute('list', 'grappi-node-names');
      var names = el('datalist');
      names.id = 'grappi-node-names';
      view.nodes.slice(0, 2000).forEach(function (n) { var o = el('option'); o.value = String(n.label); names.appendChild(o); });
      search.addEventListener('keydown', function (ev) {
        if (ev.key !== 'Enter') return;
        ev.preventDefault();
        var hit = d.find(search.value);
        search.classList.toggle('not-found', !hit);
        if (!hit) return;
        showNode(hit.id());
        cy.animate({ center: { eles: hit }, zoom: Math.max(cy.zoom(), 1.5) }, { duration: 200 });
      });
      bar.appendChild(search);
      bar.appendChild(names);
      bar.appendChild(button('Fit', 'fit', function () { cy.fit(cy.elements(':visible'), 20); }));
      bar.appendChild(button('PNG', 'export-png', d.exportPng));
      bar.appendChild(button('SVG', 'export-svg', d.exportSvg));
      return bar;
    }
    // Legend: the clusters (colouring by cluster) or the roles present, the STRING channels, then the relations
    // (each a filter); filled again when the colouring changes.
    function fillLegend(d) {
      while (legend.firstChild) legend.removeChild(legend.firstChild);
      if (d.state.colourBy === 'cluster') {
        legend.appendChild(el('span', 'legend-title', 'Clusters:'));
        d.clusters.forEach(function (c) {
          var item = el('span', 'legend-item cluster');
          var dot = el('span', 'dot');
          dot.style.background = c.colour;
          item.appendChild(dot);
          item.appendChild(document.createTextNode((c.label || 'cluster ' + c.id) + ' (' + c.size + ')'));
          legend.appendChild(item);
        });
      }
      if (d.state.colourBy !== 'cluster') d.roles.forEach(function (r) {
        var item = el('span', 'legend-item');
        var dot = el('span', 'dot');
        dot.style.background = GrappiGraph.roleColours[r];
        item.appendChild(dot);
        item.appendChild(document.createTextNode(GrappiGraph.roleNames[r]));
        legend.appendChild(item);
      });
      if (d.channels.length) legend.appendChild(el('span', 'legend-title', 'STRING evidence:'));
      d.channels.forEach(function (c) {
        var item = el('span', 'legend-item channel');
        var bar = el('span', 'bar');
        bar.style.background = c.colour;
        item.appendChild(bar);
        item.appendChild(document.createTextNode(c.label));
        legend.appendChild(item);
      });
      if (d.relations.length) legend.appendChild(el('span', 'legend-title', 'Relations:'));
      d.relations.forEach(function (r) {
        var item = el('label', 'legend-item relation');
        var box = el('input');
        box.type = 'checkbox';
        box.checked = d.state.relations[r.name] !== false;  // (as the filter stands: the legend is refilled)
        box.disabled = d.relations.length < 2;
        box.setAttribute('data-relation', r.name);
        box.addEventListener('change', function () { d.setRelation(r.name, box.checked); });
        item.appendChild(box);
        if (r.drawn) {
          var bar = el('span', 'bar');
          bar.style.background = r.colour;
          item.appendChild(bar);
        }
        item.appendChild(document.createTextNode(r.name || 'edge'));
        legend.appendChild(item);
      });
    }

    function clearDetail(title) {
      while (detail.firstChild) detail.removeChild(detail.firstChild);
      if (title) detail.appendChild(el('h3', null, title));
    }
    function highlight(nodeIds, edgeIds) {
      if (!cy) return;
      cy.batch(function () {
        cy.elements().removeClass('highlighted').removeClass('faded');
        if (!nodeIds.length && !edgeIds.length) return;
        cy.elements().addClass('faded');
        nodeIds.forEach(function (id) { cy.getElementById(id).removeClass('faded').addClass('highlighted'); });
        edgeIds.forEach(function (id) { cy.getElementById(id).removeClass('faded').addClass('highlighted'); });
      });
      // In a large network the selection is shown up close.
      if (large && (nodeIds.length || edgeIds.length)) cy.fit(cy.$('.highlighted'), 80);
      drawing.placeLabels();
    }
    function keyValues(parent, pairs) {
      var dl = el('dl', 'kv');
      pairs.forEach(function (p) {
        if (p[1] === undefined || p[1] === null || p[1] === '') return;
        dl.appendChild(el('dt', null, p[0]));
        var dd = el('dd');
        if (p[1] instanceof Node) dd.appendChild(p[1]); else dd.textContent = String(p[1]);
        dl.appendChild(dd);
      });
      parent.appendChild(dl);
    }
    function edgeBlock(e) {
      var box = el('div', 'edge-detail');
      var a = nodesById[e.source], b = nodesById[e.target];
      box.appendChild(el('h4', null, (a ? a.label : e.source) + (e.directed ? ' \u2192 ' : ' \u2014 ') + (b ? b.label : e.target)));
      var pairs = [['relation', e.relation], ['score', fmt(e.score)]];
      if (e.explanation) {
        var p = el('span', null, e.explanation + ' ');
        if (e.generated === false) p.appendChild(offlineBadge(view));
        pairs.push(['explanation', p]);
      }
      if (e.status && e.status !== 'ok') pairs.push(['status', e.status + (e.error ? ': ' + e.error : '')]);
      if (e.channels && typeof e.channels === 'object' && Object.keys(e.channels).length) {
        pairs.push(['STRING channels', Object.keys(e.channels).map(function (k) { return k + ' ' + fmt(e.channels[k]); }).join(', ')]);
      }
      if (arrayOf(e.pmids).length) {
        var links = el('span', 'pmids');
        arrayOf(e.pmids).forEach(function (id, i) { if (i) links.appendChild(document.createTextNode(' ')); links.appendChild(pubmedLink(id)); });
        pairs.push(['PubMed', links]);
      }
      pairs.push(['evidence', e.evidence]);
      arrayOf(e.info).forEach(function (kv) { if (Array.isArray(kv)) pairs.push([kv[0], kv[1]]); });
      keyValues(box, pairs);
      return box;
    }
    function nodeBlock(n) {
      var box = el('div', 'node-detail');
      box.appendChild(el('h4', null, n.label));
      var pairs = [['role', GrappiGraph.roleNames[n.role] || n.role], ['id', n.external_id], ['score', fmt(n.score)]];
      if (n.score_label) pairs[2][0] = n.score_label;
      pairs.push(['annotation', n.annotation]);
      arrayOf(n.info).forEach(function (kv) { if (Array.isArray(kv)) pairs.push([kv[0], kv[1]]); });
      keyValues(box, pairs);
      return box;
    }
    function showNode(id) {
      var n = nodesById[id];
      if (!n) return;
      clearDetail();
      detail.appendChild(nodeBlock(n));
      // The node with its neighbourhood in view: its edges and the nodes at their other ends.
      var ids = [id], edgeIds = [];
      if (cy) {
        cy.getElementById(id).connectedEdges(':visible').forEach(function (e) {
          edgeIds.push(e.id());
          var other = e.source().id() === id ? e.target().id() : e.source().id();
          if (ids.indexOf(other) < 0) ids.push(other);
        });
        keyValues(detail, [['neighbours shown', String(ids.length - 1)]]);
      }
      highlight(ids, edgeIds);
    }
    function showEdge(id) {
      var e = edgesById[id];
      if (!e) return;
      clearDetail();
      detail.appendChild(edgeBlock(e));
      highlight([e.source, e.target], [id]);
    }
    function showItem(index) {
      var it = view.items[index];
      if (!it) return;
      Array.prototype.forEach.call(list.querySelectorAll('li.selected'), function (li) { li.classList.remove('selected'); });
      var li = list.querySelector('li[data-index="' + index + '"]');
      if (li) li.classList.add('selected');
      clearDetail(it.title);
      var head = [];
      if (it.rank) head.push(['rank', it.rank]);
      if (typeof it.score === 'number') head.push([it.score_label || view.score_label || 'score', fmt(it.score, digits)]);
      if (it.status) head.push(['status', it.status + (it.error ? ': ' + it.error : '')]);
      keyValues(detail, head);
      if (it.text) {
        var t = el('p', 'item-text explanation', it.text + ' ');
        if (it.generated === false) t.appendChild(offlineBadge(view));
        detail.appendChild(t);
      }
      objects(it.details).forEach(function (d) {
        var box = el('div', 'item-extra' + (d.status ? ' status-' + d.status : ''));
        box.appendChild(el('strong', null, (d.label === undefined ? '' : d.label) + ': '));
        box.appendChild(document.createTextNode(d.text === undefined || d.text === null ? '' : String(d.text)));
        detail.appendChild(box);
      });
      var edges = arrayOf(it.edges).map(function (id) { return edgesById[id]; }).filter(Boolean);
      if (edges.length) {
        detail.appendChild(el('h4', 'section', 'Edges'));
        edges.forEach(function (e) { detail.appendChild(edgeBlock(e)); });
      }
      var nodes = arrayOf(it.nodes).map(function (id) { return nodesById[id]; }).filter(function (n) { return n && n.annotation; });
      if (nodes.length) {
        detail.appendChild(el('h4', 'section', 'Annotations'));
        nodes.forEach(function (n) {
          var p = el('p', 'annotation');
          p.appendChild(el('strong', null, n.label + ': '));
          p.appendChild(document.createTextNode(n.annotation));
          detail.appendChild(p);
        });
      }
      highlight(arrayOf(it.nodes), arrayOf(it.edges));
      if (options.onItem) options.onItem(it, index);
    }

    // A curator's review (extract): a decision per statement, and the review file grappi reads
    // back (grappi extract --apply-review) written with them.
    var review = view.review && Array.isArray(view.review.rows) ? view.review : null;
    var decisions = review ? review.rows.map(function (r) { return Array.isArray(r) ? r[0] : null; }) : [];
    function reviewText() {
      if (!review) return '';
      var out = review.comment + '\n' + review.header + '\n';
      review.rows.forEach(function (r, i) {
        if (!Array.isArray(r)) return;
        out += [decisions[i]].concat(r.slice(1)).join('\t') + '\n';
      });
      return out;
    }
    if (review) {
      var bar = el('div', 'review-bar');
      var download = el('button', 'review-download', 'Download review file');
      download.type = 'button';
      download.addEventListener('click', function () {
        GrappiGraph.download(new Blob([reviewText()], { type: 'text/tab-separated-values' }), review.file || 'review.tsv');
      });
      bar.appendChild(download);
      bar.appendChild(el('span', 'hint', ' then: grappi extract --db DB --apply-review FILE'));
      side.insertBefore(bar, list);
    }
    function decisionControl(index) {
      var select = el('select', 'decision');
      select.setAttribute('aria-label', 'decision for statement ' + (index + 1));
      [['accept', 'accept'], ['reject', 'reject'], ['', 'undecided']].forEach(function (o) {
        var opt = el('option', null, o[1]);
        opt.value = o[0];
        select.appendChild(opt);
      });
      select.value = decisions[index] || '';
      select.addEventListener('click', function (ev) { ev.stopPropagation(); });
      select.addEventListener('change', function () { decisions[index] = select.value; });
      return select;
    }

    // The ranked list, PAGE items at a time as it is scrolled.
    var items = view.items || [];
    var shown = 0;
    var sentinel = el('li', 'more');
    function renderMore() {
      var end = Math.min(items.length, shown + PAGE);
      for (var i = shown; i < end; ++i) {
        var it = items[i];
        var li = el('li', 'item' + (it.status && it.status !== 'ok' ? ' status-' + it.status : ''));
        li.setAttribute('data-index', String(i));
        li.tabIndex = 0;
        var top = el('div', 'item-head');
        if (it.rank) top.appendChild(el('span', 'rank', '#' + it.rank));
        if (typeof it.score === 'number') top.appendChild(el('span', 'score', fmt(it.score, digits)));
        top.appendChild(el('span', 'title', it.title));
        if (review && Array.isArray(review.rows[i])) top.appendChild(decisionControl(i));
        li.appendChild(top);
        if (it.summary) li.appendChild(el('div', 'summary', it.summary));
        (function (index) {
          li.addEventListener('click', function () { showItem(index); });
          li.addEventListener('keydown', function (ev) { if (ev.key === 'Enter') showItem(index); });
        })(i);
        list.insertBefore(li, sentinel.parentNode === list ? sentinel : null);
      }
      shown = end;
      if (shown < items.length) {
        sentinel.textContent = (items.length - shown) + ' more (scroll or click)';
        if (sentinel.parentNode !== list) list.appendChild(sentinel);
      } else if (sentinel.parentNode === list) {
        list.removeChild(sentinel);
      }
    }
    sentinel.addEventListener('click', renderMore);
    renderMore();
    if (!items.length) list.appendChild(el('li', 'empty', view.empty_text || 'Nothing ranked.'));
    if (typeof IntersectionObserver === 'function') {
      new IntersectionObserver(function (entries) {
        entries.forEach(function (en) { if (en.isIntersecting && shown < items.length) renderMore(); });
      }, { root: list }).observe(sentinel);
    }

    var api = {
      cy: cy, graph: drawing, view: view, showItem: showItem, showNode: showNode, showEdge: showEdge,
      renderedItems: function () { return shown; }, reviewText: reviewText
    };
    root.setAttribute('data-ready', '1');
    return api;
  }

  window.GrappiReport = { render: render };
})();
