/* The page of `grappi serve`: a form over the JSON endpoints (docs/web.md, "grappi serve"), progress
 * while a job runs, cancel, the next window, and the result drawn by GrappiReport. */
(function () {
  'use strict';
  var params = new URLSearchParams(window.location.search);
  var token = params.get('token') || '';
  var $ = function (id) { return document.getElementById(id); };
  var job = null, poll = null, report = null;

  function api(method, path, body) {
    var headers = { 'Accept': 'application/json' };
    if (token) headers['Authorization'] = 'Bearer ' + token;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    return fetch(path, { method: method, headers: headers, body: body === undefined ? undefined : JSON.stringify(body) })
      .then(function (r) {
        return r.json().catch(function () { return { error: 'HTTP ' + r.status }; }).then(function (j) {
          if (!r.ok) throw new Error(j.error || ('HTTP ' + r.status));
          return j;
        });
      });
  }
  function status(text, isError) {
    var s = $('status');
    while (s.firstChild) s.removeChild(s.firstChild);
    s.className = 'status-line' + (isError ? ' error' : '');
    if (text instanceof Node) s.appendChild(text); else s.textContent = text || '';
  }
  function setTask() {
    var task = $('task').value;
    Array.prototype.forEach.call(document.querySelectorAll('.for-explore'), function (e) { e.hidden = task !== 'explore'; });
    Array.prototype.forEach.call(document.querySelectorAll('.for-ask'), function (e) { e.hidden = task !== 'ask'; });
    Array.prototype.forEach.call(document.querySelectorAll('.for-hypothesize'), function (e) { e.hidden = task !== 'hypothesize'; });
    $('protein').required = task === 'explore';
    $('query').required = task === 'explore';
    $('question').required = task === 'ask';
    $('source').required = task === 'hypothesize';
    $('target').required = task === 'hypothesize';
  }
  function request() {
    var task = $('task').value;
    if (task === 'ask') return { task: 'ask', body: { question: $('question').value } };
    if (task === 'hypothesize') {
      return { task: 'hypothesize',
               body: { source: $('source').value, target: $('target').value, shortest_rounds: Number($('shortest_rounds').value) } };
    }
    return {
      task: 'explore',
      body: {
        protein: $('protein').value, query: $('query').value, windows: $('windows').value, k: $('k').value,
        depth: Number($('depth').value), max_len: Number($('max_len').value), top: Number($('top').value)
      }
    };
  }
  function busy(on) {
    $('run').disabled = on;
    $('cancel').disabled = !on;
    // (disabled too when the explore view says the next window would be empty)
    var next = $('next-window');
    next.disabled = on || !report || $('task').value !== 'explore' || !report.view || report.view.next_window === false;
    next.title = report && report.view && report.view.next_window === false ? 'The start\u2019s neighbors are used up: the next window is empty.' : '';
  }
  function showHead(view) {
    var head = $('result-head');
    while (head.firstChild) head.removeChild(head.firstChild);
    var box = document.createElement('div');
    box.className = 'page-section';
    var h = document.createElement('h2');
    h.textContent = view.title || '';
    box.appendChild(h);
    if (view.subtitle) { var p = document.createElement('p'); p.className = 'subtitle'; p.textContent = view.subtitle; box.appendChild(p); }
    if (view.offline_note) { var o = document.createElement('p'); o.className = 'offline-note'; o.textContent = view.offline_note; box.appendChild(o); }
    if (view.notes && view.notes.length) {
      var ul = document.createElement('ul');
      ul.className = 'notes';
      view.notes.forEach(function (n) { var li = document.createElement('li'); li.textContent = n; ul.appendChild(li); });
      box.appendChild(ul);
    }
    (view.sections || []).forEach(function (s) {
      var sec = document.createElement('section');
      var t = document.createElement('h3');
      t.textContent = s.title;
      sec.appendChild(t);
      if (s.text) { var p2 = document.createElement('p'); p2.textContent = s.text; sec.appendChild(p2); }
      var ul2 = document.createElement('ul');
      ul2.className = 'entries';
      (s.entries || []).forEach(function (e) {
        var li = document.createElement('li');
        li.className = e.status ? 'status-' + e.status : '';
        li.textContent = e.text + (e.status ? ' [' + e.status + ']' : '');
        if (e.note) { var sm = document.createElement('small'); sm.textContent = ' ' + e.note; li.appendChild(sm); }
        ul2.appendChild(li);
      });
      sec.appendChild(ul2);
      box.appendChild(sec);
    });
    head.appendChild(box);
  }
  function finished(j) {
    busy(false);
    if (j.state === 'failed') { status('Failed: ' + j.error, true); return; }
    api('GET', '/api/jobs/' + job + '/view').then(function (view) {
      showHead(view);
      report = GrappiReport.render($('report'), view);
      window.grappiReport = report;
      var a = $('download');
      a.href = '/api/jobs/' + job + '/report.html' + (token ? '?token=' + encodeURIComponent(token) : '');
      a.download = 'grappi-' + (view.kind || 'report') + '.html';
      a.hidden = false;
      busy(false);
      status((j.state === 'cancelled' ? 'Cancelled (partial result). ' : 'Done. ') + (view.items || []).length + ' ranked; ' +
             (view.nodes || []).length + ' nodes, ' + (view.edges || []).length + ' edges; ' + j.seconds.toFixed(2) + ' s.');
    }).catch(function (e) { status(e.message, true); });
  }
  function watch() {
    api('GET', '/api/jobs/' + job).then(function (j) {
      if (j.state === 'running') {
        var line = document.createElement('span');
        line.textContent = 'Running: ' + (j.stage || 'starting') + ' ' + (j.total ? j.done + '/' + j.total + ' ' : '');
        var bar = document.createElement('progress');
        if (j.total) { bar.max = j.total; bar.value = j.done; }
        line.appendChild(bar);
        status(line);
        poll = setTimeout(watch, 250);
      } else {
        finished(j);
      }
    }).catch(function (e) { busy(false); status(e.message, true); });
  }
  function run() {
    var r = request();
    busy(true);
    status('Starting…');
    $('download').hidden = true;
    api('POST', '/api/' + r.task, r.body).then(function (j) {
      job = j.job;
      watch();
    }).catch(function (e) { busy(false); status(e.message, true); });
  }

  $('task').addEventListener('change', setTask);
  $('query-form').addEventListener('submit', function (ev) { ev.preventDefault(); run(); });
  $('cancel').addEventListener('click', function () {
    if (job) api('POST', '/api/jobs/' + job + '/cancel', {}).catch(function (e) { status(e.message, true); });
  });
  $('next-window').addEventListener('click', function () {
    var w = parseInt($('windows').value, 10);
    $('windows').value = String((isFinite(w) ? w : 1) + 1);
    run();
  });
  var completeTimer = null;
  $('protein').addEventListener('input', function () {
    clearTimeout(completeTimer);
    var q = $('protein').value;
    if (q.length < 1) return;
    completeTimer = setTimeout(function () {
      api('GET', '/api/complete?q=' + encodeURIComponent(q) + '&limit=10').then(function (j) {
        var list = $('protein-list');
        while (list.firstChild) list.removeChild(list.firstChild);
        (j.completions || []).forEach(function (c) {
          var o = document.createElement('option');
          o.value = c.name || c.external_id;
          o.label = (c.matched_by === 'name' ? '' : c.matched + ' \u2192 ') + (c.name || '') + ' (' + c.external_id + ')';
          list.appendChild(o);
        });
      }).catch(function () {});
    }, 150);
  });
  setTask();
  api('GET', '/api/info').then(function (j) {
    if ((j.tasks || []).indexOf('hypothesize') >= 0) document.querySelector('#task option[value="hypothesize"]').disabled = false;
    $('db-summary').textContent = j.database + ': ' + j.nodes + ' nodes, ' + j.edges + ' edges; model: ' + j.model +
      (j.language_model ? '' : ' (offline, not a language model)');
    document.body.setAttribute('data-ready', '1');
  }).catch(function (e) { status(e.message, true); });
})();
