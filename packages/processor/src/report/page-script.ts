// The script of the report page: it reads the embedded JSON and draws every table and chart from it, so that the
// page shows exactly what other tools read. Plain ES2020 for any browser; uPlot is loaded before it.
export const PAGE_SCRIPT = `
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('backupstats-report').textContent);
  // Sixteen: the two line charts show at most eight operations each, and every operation keeps its colour on both.
  var COLORS = ['#2563eb', '#dc2626', '#16a34a', '#d97706', '#7c3aed', '#0891b2', '#db2777', '#4b5563', '#65a30d',
    '#9333ea', '#0d9488', '#ea580c', '#1e40af', '#be123c', '#854d0e', '#6b21a8'];
  var FORMATS = {
    seconds: function (v) { return v.toFixed(3) + ' s'; },
    bytes: function (v) { return Math.round(v).toLocaleString('en-US') + ' B'; },
    rate: function (v) { return (v / 1048576).toFixed(2) + ' MiB/s'; },
    share: function (v) { return (v * 100).toFixed(1) + ' %'; },
    count: function (v) { return Math.round(v).toLocaleString('en-US'); },
    ms: function (v) { return (v * 1000).toFixed(3) + ' ms'; },
    ratio: function (v) { return v.toFixed(3); },
  };
  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    for (var k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function num(key, value, format) {
    if (value === null || value === undefined) return el('td', {}, '–');
    return el('td', { 'data-key': key, 'data-format': format, class: 'num' }, FORMATS[format](value));
  }
  function table(parent, head, rows) {
    var t = el('table');
    var tr = el('tr');
    head.forEach(function (h) { tr.appendChild(el('th', {}, h)); });
    t.appendChild(tr);
    rows.forEach(function (cells) {
      var row = el('tr');
      cells.forEach(function (c, i) {
        var cell = typeof c === 'string' ? el('td', {}, c) : c;
        // The first column names the row: a long name wraps anywhere rather than widening the page.
        if (i === 0) cell.classList.add('label');
        row.appendChild(cell);
      });
      t.appendChild(row);
    });
    parent.appendChild(t);
    return t;
  }
  // A label a chart has room for: a long one keeps its start and end around an ellipsis (tables show it whole).
  function shorten(text, max) {
    if (text.length <= max) return text;
    var half = Math.floor((max - 1) / 2);
    return text.slice(0, half) + '\u2026' + text.slice(text.length - (max - 1 - half));
  }
  // A moment as UTC date and time to the millisecond, without the ISO form's T.
  // A run's start: its time of day when it is on the day the stats were created (the page's first line gives that
  // day), the whole date otherwise; the cell's title always holds the whole timestamp.
  function timeOf(ms) {
    var iso = new Date(ms).toISOString();
    return iso.slice(0, 10) === new Date(data.createdAt).toISOString().slice(0, 10) ? iso.slice(11) : iso.replace('T', ' ');
  }
  function where(s) { return s.family + ' ' + s.component + '/' + s.implementation + ' ' + s.operation; }
  function section(id) { return document.getElementById(id); }

  section('meta').textContent = 'backupstats ' + data.library.version + ', report schema ' + data.version +
    ', made ' + new Date(data.generatedAt).toISOString() + ' for stats created ' + new Date(data.createdAt).toISOString();

  // Runs, and where each one's time went.
  var runs = section('runs');
  if (data.runs.length === 0) runs.appendChild(el('p', {}, 'No run ended.'));
  else table(runs, ['run', 'started', 'outcome', 'duration', 'read', 'stored', 'stored/read', 'throughput', 'bottleneck'], data.runs.map(function (r, i) {
    return [el('td', {}, '#' + (i + 1) + ' ' + where(r)), el('td', { class: 'time', title: new Date(r.startedAt).toISOString() }, timeOf(r.startedAt)),
      el('td', { class: r.outcome }, r.outcome + (r.reason ? ' (' + r.reason + ')' : '')),
      num('runs.' + i + '.seconds', r.seconds, 'seconds'), num('runs.' + i + '.bytes', r.bytes, 'bytes'),
      num('runs.' + i + '.storedBytes', r.storedBytes, 'bytes'), num('runs.' + i + '.storedRatio', r.storedRatio, 'ratio'),
      num('runs.' + i + '.bytesPerSecond', r.bytesPerSecond, 'rate'),
      el('td', {}, r.bottleneck ? shorten(r.bottleneck.operation, 40) : '–')];
  }));
  var stages = section('stages');
  data.runs.forEach(function (r, i) {
    var box = el('div', { class: 'run' });
    box.appendChild(el('h3', {}, '#' + (i + 1) + ' ' + r.family + ', ' + FORMATS.seconds(r.seconds)));
    box.appendChild(el('p', { class: 'sentence', 'data-run': String(i) }, r.bottleneck ? r.bottleneck.sentence : 'No stage moved during this run.'));
    if (r.stages.length > 0) box.appendChild(shareBars(r, i));
    stages.appendChild(box);
  });
  function shareBars(r, i) {
    var ns = 'http://www.w3.org/2000/svg';
    var rowH = 22, labelW = 330, barW = 420;
    var top = Math.max(1, r.stages.reduce(function (m, s) { return Math.max(m, s.busyShare); }, 0));
    var svg = document.createElementNS(ns, 'svg');
    svg.setAttribute('class', 'chart shares');
    svg.setAttribute('viewBox', '0 0 ' + (labelW + barW + 90) + ' ' + (rowH * r.stages.length + 4));
    svg.setAttribute('width', String(labelW + barW + 90));
    r.stages.forEach(function (s, j) {
      var y = j * rowH + 2;
      var label = document.createElementNS(ns, 'text');
      label.setAttribute('x', '0'); label.setAttribute('y', String(y + 15));
      label.textContent = shorten(s.component + '/' + s.implementation + ' ' + s.operation, 46);
      label.appendChild(document.createElementNS(ns, 'title')).textContent = s.component + '/' + s.implementation + ' ' + s.operation;
      var bar = document.createElementNS(ns, 'rect');
      bar.setAttribute('x', String(labelW)); bar.setAttribute('y', String(y + 3));
      bar.setAttribute('width', String(Math.max(1, (barW * s.busyShare) / top))); bar.setAttribute('height', '14');
      bar.setAttribute('fill', r.bottleneck && s.operation === r.bottleneck.operation && s.component === r.bottleneck.component ? '#dc2626' : '#2563eb');
      var value = document.createElementNS(ns, 'text');
      value.setAttribute('x', String(labelW + barW + 6)); value.setAttribute('y', String(y + 15));
      value.setAttribute('data-key', 'runs.' + i + '.stages.' + j + '.busyShare'); value.setAttribute('data-format', 'share');
      value.textContent = FORMATS.share(s.busyShare);
      svg.appendChild(label); svg.appendChild(bar); svg.appendChild(value);
    });
    return svg;
  }

  // An operation's colour is the one it got in the first chart that showed it.
  var colourOf = (function () {
    var given = new Map();
    return function (timeline) {
      if (!given.has(timeline)) given.set(timeline, COLORS[given.size % COLORS.length]);
      return given.get(timeline);
    };
  })();

  // Throughput and busy share over time, per operation.
  function lineChart(parent, title, times, list, field, scale, unit) {
    // The operations that moved most, at most eight: a chart of twenty lines shows none.
    var total = function (t) { return t[field].reduce(function (a, v) { return a + (v || 0); }, 0); };
    var shown = list.filter(function (t) { return total(t) > 0; })
      .sort(function (a, b) { return total(b) - total(a); }).slice(0, 8);
    if (shown.length === 0 || times.length < 2) { parent.appendChild(el('p', {}, 'Nothing to draw for ' + title + '.')); return; }
    var holder = el('div', { class: 'chart uplot-holder', 'data-chart': field });
    parent.appendChild(holder);
    var series = [{}].concat(shown.map(function (t) {
      return { label: shorten(t.family + ' ' + t.operation, 48), stroke: colourOf(t), width: 1.5,
        value: function (u, v) { return v === null ? '–' : v.toFixed(2) + ' ' + unit; } };
    }));
    var columns = [times.map(function (t) { return t / 1000; })].concat(shown.map(function (t) {
      return t[field].map(function (v) { return v === null ? null : v * scale; });
    }));
    // As wide as the page's column, at most 900 pixels: a narrow window gets no sideways scroll.
    var width = Math.min(900, Math.max(320, parent.clientWidth || 900));
    new uPlot({ title: title, width: width, height: 280, series: series, axes: [{}, { label: unit }] }, columns, holder);
  }
  var over = section('throughput');
  if (!data.timelineKept) over.appendChild(el('p', {}, 'These stats keep no timeline (flushIntervalMillis: 0).'));
  lineChart(over, 'Throughput per operation', data.times, data.timelines, 'bytesPerSecond', 1 / 1048576, 'MiB/s');
  lineChart(over, 'Busy share per operation (time spent per second of wall time)', data.times, data.timelines, 'busyShare', 100, '%');

  // Latency: quantiles per operation, then the shape of each distribution, one small histogram per operation.
  var latency = section('latency');
  if (data.latency.length === 0) latency.appendChild(el('p', {}, 'These stats keep no latency histograms.'));
  else {
    table(latency, ['operation', 'operations', 'p50', 'p90', 'p99'], data.latency.map(function (l, i) {
      return [el('td', {}, l.family + ' ' + l.operation), num('latency.' + i + '.count', l.count, 'count'),
        num('latency.' + i + '.p50', l.p50, 'ms'), num('latency.' + i + '.p90', l.p90, 'ms'), num('latency.' + i + '.p99', l.p99, 'ms')];
    }));
    latency.appendChild(el('p', { class: 'note' }, 'Each panel: the share of the operation\u2019s calls in each latency bucket, on one ' +
      'logarithmic time axis for all, so that the panels compare; the lines mark p50 and p99.'));
    latencyPanels(latency, data.latency, data.boundaries);
  }
  // The ends of bucket i, seconds: the first starts a step below its bound, the last (no upper bound) a step above.
  function bucketEnds(b, i) {
    var n = b.length;
    var lower = i === 0 ? b[0] / (b[1] / b[0]) : b[i - 1];
    var upper = i < n ? b[i] : b[n - 1] * (b[n - 1] / b[n - 2]);
    return [lower, upper];
  }
  function shortSeconds(v) {
    var text = function (x) { return String(Number(x.toPrecision(3))); };
    if (v < 1e-3) return text(v * 1e6) + ' \u00b5s';
    if (v < 1) return text(v * 1e3) + ' ms';
    return text(v) + ' s';
  }
  function latencyPanels(parent, list, b) {
    // One time range for every panel: from the lowest bucket any operation has calls in to the highest, in decades.
    var low = Infinity, high = 0;
    list.forEach(function (l) {
      l.counts.forEach(function (c, i) {
        if (c > 0) { var ends = bucketEnds(b, i); low = Math.min(low, ends[0]); high = Math.max(high, ends[1]); }
      });
    });
    var from = Math.floor(Math.log10(low)), to = Math.ceil(Math.log10(high));
    if (to <= from) to = from + 1;
    var ns = 'http://www.w3.org/2000/svg';
    var W = 300, H = 120, left = 6, right = 294, top = 14, bottom = 92;
    var x = function (seconds) {
      var at = (Math.log10(Math.max(seconds, Math.pow(10, from))) - from) / (to - from);
      return left + (right - left) * Math.min(1, at);
    };
    var decades = to - from;
    var every = decades > 7 ? 2 : 1;
    var grid = el('div', { class: 'multiples' });
    parent.appendChild(grid);
    list.forEach(function (l, k) {
      var figure = el('figure', { 'data-operation': l.family + ' ' + l.operation });
      var caption = el('figcaption');
      caption.appendChild(el('strong', { title: l.family + ' ' + l.operation }, shorten(l.family + ' ' + l.operation, 60)));
      caption.appendChild(document.createTextNode(' '));
      caption.appendChild(el('span', { 'data-key': 'latency.' + k + '.count', 'data-format': 'count' }, FORMATS.count(l.count)));
      caption.appendChild(document.createTextNode(' calls'));
      figure.appendChild(caption);
      var svg = document.createElementNS(ns, 'svg');
      svg.setAttribute('class', 'latency');
      svg.setAttribute('viewBox', '0 0 ' + W + ' ' + H);
      svg.setAttribute('role', 'img');
      svg.setAttribute('aria-label', 'latency of ' + l.family + ' ' + l.operation + ': p50 ' + FORMATS.ms(l.p50) + ', p99 ' + FORMATS.ms(l.p99));
      var add = function (tag, attrs, text) {
        var node = document.createElementNS(ns, tag);
        for (var a in attrs) node.setAttribute(a, String(attrs[a]));
        if (text !== undefined) node.textContent = text;
        svg.appendChild(node);
        return node;
      };
      for (var d = from; d <= to; d++) {
        var gx = x(Math.pow(10, d));
        add('line', { x1: gx, x2: gx, y1: top, y2: bottom, class: 'grid' });
        if ((d - from) % every === 0) {
          add('text', { x: gx, y: bottom + 14, 'text-anchor': d === from ? 'start' : d === to ? 'end' : 'middle' },
            shortSeconds(Math.pow(10, d)));
        }
      }
      var peak = l.counts.reduce(function (m, c) { return Math.max(m, c); }, 0);
      l.counts.forEach(function (c, i) {
        if (!(c > 0)) return;
        var ends = bucketEnds(b, i);
        var x0 = x(ends[0]), x1 = x(ends[1]);
        var h = ((bottom - top) * c) / peak;
        add('rect', { x: x0 + 0.5, y: bottom - h, width: Math.max(1, x1 - x0 - 1), height: h, class: 'bar' });
      });
      add('line', { x1: left, x2: right, y1: bottom, y2: bottom, class: 'axis' });
      add('text', { x: left, y: 10, class: 'peak' }, 'tallest bar: ' + ((100 * peak) / l.count).toFixed(0) + ' % of calls');
      [['p50', l.p50], ['p99', l.p99]].forEach(function (q) {
        var qx = x(q[1]);
        add('line', { x1: qx, x2: qx, y1: top, y2: bottom, class: q[0] });
      });
      svg.appendChild(document.createElementNS(ns, 'title')).textContent = svg.getAttribute('aria-label');
      figure.appendChild(svg);
      var quantiles = el('div', { class: 'quantiles' });
      quantiles.appendChild(el('span', { class: 'p50' }, 'p50 '));
      quantiles.appendChild(el('span', { 'data-key': 'latency.' + k + '.p50', 'data-format': 'ms' }, FORMATS.ms(l.p50)));
      quantiles.appendChild(el('span', { class: 'p99' }, '  p99 '));
      quantiles.appendChild(el('span', { 'data-key': 'latency.' + k + '.p99', 'data-format': 'ms' }, FORMATS.ms(l.p99)));
      figure.appendChild(quantiles);
      grid.appendChild(figure);
    });
  }

  // S3 attempts, and every series' totals as exported.
  var storage = section('storage');
  if (data.storage.length === 0) storage.appendChild(el('p', {}, 'No storage request was metered.'));
  else table(storage, ['implementation', 'attempts', 'failed', 'throttled', 'bytes', 'time'], data.storage.map(function (s, i) {
    var key = 'storage.' + i + '.';
    return [s.implementation, num(key + 'attempts', s.attempts, 'count'), num(key + 'failed', s.failed, 'count'),
      num(key + 'throttled', s.throttled, 'count'), num(key + 'bytes', s.bytes, 'bytes'), num(key + 'seconds', s.seconds, 'seconds')];
  }));
  table(section('series'), ['series', 'operations', 'bytes', 'time', 'p50', 'p99'], data.series.map(function (s, i) {
    return [el('td', {}, where(s)), num('series.' + i + '.count', s.count, 'count'), num('series.' + i + '.bytes', s.bytes, 'bytes'),
      num('series.' + i + '.seconds', s.seconds, 'seconds'), num('series.' + i + '.p50', s.p50, 'ms'), num('series.' + i + '.p99', s.p99, 'ms')];
  }));
  document.body.setAttribute('data-drawn', 'true');
})();
`;
