// The script of the report page: it reads the embedded JSON and draws every table and chart from it, so that the
// page shows exactly what other tools read. Plain ES2020 for any browser; uPlot is loaded before it.
export const PAGE_SCRIPT = `
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('backupstats-report').textContent);
  var COLORS = ['#2563eb', '#dc2626', '#16a34a', '#d97706', '#7c3aed', '#0891b2', '#db2777', '#4b5563', '#65a30d', '#9333ea'];
  var FORMATS = {
    seconds: function (v) { return v.toFixed(3) + ' s'; },
    bytes: function (v) { return Math.round(v).toLocaleString('en-US') + ' B'; },
    rate: function (v) { return (v / 1048576).toFixed(2) + ' MiB/s'; },
    share: function (v) { return (v * 100).toFixed(1) + ' %'; },
    count: function (v) { return Math.round(v).toLocaleString('en-US'); },
    ms: function (v) { return (v * 1000).toFixed(3) + ' ms'; },
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
      cells.forEach(function (c) { row.appendChild(typeof c === 'string' ? el('td', {}, c) : c); });
      t.appendChild(row);
    });
    parent.appendChild(t);
    return t;
  }
  function where(s) { return s.family + ' ' + s.component + '/' + s.implementation + ' ' + s.operation; }
  function section(id) { return document.getElementById(id); }

  section('meta').textContent = 'backupstats ' + data.library.version + ', report schema ' + data.version +
    ', made ' + new Date(data.generatedAt).toISOString() + ' for stats created ' + new Date(data.createdAt).toISOString();

  // Runs, and where each one's time went.
  var runs = section('runs');
  if (data.runs.length === 0) runs.appendChild(el('p', {}, 'No run ended.'));
  else table(runs, ['run', 'started', 'outcome', 'duration', 'bytes', 'throughput', 'bottleneck'], data.runs.map(function (r, i) {
    return [el('td', {}, '#' + (i + 1) + ' ' + where(r)), el('td', {}, new Date(r.startedAt).toISOString()),
      el('td', { class: r.outcome }, r.outcome + (r.reason ? ' (' + r.reason + ')' : '')),
      num('runs.' + i + '.seconds', r.seconds, 'seconds'), num('runs.' + i + '.bytes', r.bytes, 'bytes'),
      num('runs.' + i + '.bytesPerSecond', r.bytesPerSecond, 'rate'),
      el('td', {}, r.bottleneck ? r.bottleneck.operation : '–')];
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
    svg.setAttribute('width', String(labelW + barW + 90));
    svg.setAttribute('height', String(rowH * r.stages.length + 4));
    r.stages.forEach(function (s, j) {
      var y = j * rowH + 2;
      var label = document.createElementNS(ns, 'text');
      label.setAttribute('x', '0'); label.setAttribute('y', String(y + 15));
      label.textContent = s.component + '/' + s.implementation + ' ' + s.operation;
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

  // Throughput and busy share over time, per operation.
  function lineChart(parent, title, times, list, field, scale, unit) {
    // The operations that moved most, at most eight: a chart of twenty lines shows none.
    var total = function (t) { return t[field].reduce(function (a, v) { return a + (v || 0); }, 0); };
    var shown = list.filter(function (t) { return total(t) > 0; })
      .sort(function (a, b) { return total(b) - total(a); }).slice(0, 8);
    if (shown.length === 0 || times.length < 2) { parent.appendChild(el('p', {}, 'Nothing to draw for ' + title + '.')); return; }
    var holder = el('div', { class: 'chart uplot-holder', 'data-chart': field });
    parent.appendChild(holder);
    var series = [{}].concat(shown.map(function (t, i) {
      return { label: t.family + ' ' + t.operation, stroke: COLORS[i % COLORS.length], width: 1.5,
        value: function (u, v) { return v === null ? '–' : v.toFixed(2) + ' ' + unit; } };
    }));
    var columns = [times.map(function (t) { return t / 1000; })].concat(shown.map(function (t) {
      return t[field].map(function (v) { return v === null ? null : v * scale; });
    }));
    new uPlot({ title: title, width: 900, height: 280, series: series, axes: [{}, { label: unit }] }, columns, holder);
  }
  var over = section('throughput');
  if (!data.timelineKept) over.appendChild(el('p', {}, 'These stats keep no timeline (flushIntervalMillis: 0).'));
  lineChart(over, 'Throughput per operation', data.times, data.timelines, 'bytesPerSecond', 1 / 1048576, 'MiB/s');
  lineChart(over, 'Busy share per operation (time spent per second of wall time)', data.times, data.timelines, 'busyShare', 100, '%');

  // Latency: quantiles per operation and the shape of each distribution.
  var latency = section('latency');
  if (data.latency.length === 0) latency.appendChild(el('p', {}, 'These stats keep no latency histograms.'));
  else {
    table(latency, ['operation', 'operations', 'p50', 'p90', 'p99'], data.latency.map(function (l, i) {
      return [el('td', {}, l.family + ' ' + l.operation), num('latency.' + i + '.count', l.count, 'count'),
        num('latency.' + i + '.p50', l.p50, 'ms'), num('latency.' + i + '.p90', l.p90, 'ms'), num('latency.' + i + '.p99', l.p99, 'ms')];
    }));
    var edges = data.boundaries.concat([data.boundaries[data.boundaries.length - 1] * 2]);
    var holder = el('div', { class: 'chart uplot-holder', 'data-chart': 'latency' });
    latency.appendChild(holder);
    new uPlot({
      title: 'Share of operations per latency bucket (upper bound, log scale)', width: 900, height: 280,
      scales: { x: { time: false, distr: 3 } },
      axes: [{ values: function (u, vals) { return vals.map(function (v) { return FORMATS.ms(v); }); } }, { label: '%' }],
      series: [{ label: 'le' }].concat(data.latency.map(function (l, i) {
        return { label: l.family + ' ' + l.operation, stroke: COLORS[i % COLORS.length], width: 1.5 };
      })),
    }, [edges].concat(data.latency.map(function (l) {
      return l.counts.map(function (c) { return l.count > 0 ? (100 * c) / l.count : 0; });
    })), holder);
  }

  // S3 attempts, and every series' totals as exported.
  var s3 = section('s3');
  if (data.s3 === null) s3.appendChild(el('p', {}, 'No S3 request was metered.'));
  else table(s3, ['attempts', 'failed', 'throttled', 'bytes', 'time'], [[num('s3.attempts', data.s3.attempts, 'count'),
    num('s3.failed', data.s3.failed, 'count'), num('s3.throttled', data.s3.throttled, 'count'),
    num('s3.bytes', data.s3.bytes, 'bytes'), num('s3.seconds', data.s3.seconds, 'seconds')]]);
  table(section('series'), ['series', 'operations', 'bytes', 'time', 'p50', 'p99'], data.series.map(function (s, i) {
    return [el('td', {}, where(s)), num('series.' + i + '.count', s.count, 'count'), num('series.' + i + '.bytes', s.bytes, 'bytes'),
      num('series.' + i + '.seconds', s.seconds, 'seconds'), num('series.' + i + '.p50', s.p50, 'ms'), num('series.' + i + '.p99', s.p99, 'ms')];
  }));
  document.body.setAttribute('data-drawn', 'true');
})();
`;
