import { PAGE_SCRIPT } from './page-script.js';
import type { BackupStatsReport } from './report-schema.js';
import { UPLOT_CSS, UPLOT_JS } from './uplot-source.js';

// Nothing but what the page carries: no request of any kind, whatever a script or style might ask for.
const POLICY = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:";

const STYLE = `
body { font: 14px/1.45 system-ui, sans-serif; margin: 24px auto; padding: 0 16px; max-width: 960px; color: #111827; }
h1 { font-size: 22px; margin-bottom: 4px; } h2 { font-size: 17px; margin-top: 28px; border-bottom: 1px solid #e5e7eb; }
h3 { font-size: 14px; margin: 14px 0 2px; } #meta { color: #6b7280; margin-top: 0; }
table { border-collapse: collapse; margin: 8px 0; } th, td { padding: 3px 8px; border-bottom: 1px solid #f3f4f6; text-align: left; }
td.num { text-align: right; font-variant-numeric: tabular-nums; } td.failure { color: #b91c1c; } td.success { color: #15803d; } td.partial { color: #b45309; }
.sentence { font-weight: 600; margin: 2px 0 6px; } svg.shares text { font-size: 12px; fill: #374151; }
#series table { font-size: 12px; }
p, h3, td.label { overflow-wrap: anywhere; } td.label { min-width: 8em; } td.num, td.time { white-space: nowrap; }
svg.shares { max-width: 100%; height: auto; } .note { color: #4b5563; font-size: 13px; }
.multiples { display: grid; grid-template-columns: repeat(auto-fill, minmax(270px, 1fr)); gap: 14px 22px; margin-top: 10px; }
.multiples figure { margin: 0; min-width: 0; } .multiples figcaption { font-size: 13px; overflow-wrap: anywhere; }
svg.latency { display: block; width: 100%; height: auto; } svg.latency text { font-size: 10px; fill: #4b5563; }
svg.latency .bar { fill: #2563eb; } svg.latency .grid { stroke: #e5e7eb; } svg.latency .axis { stroke: #9ca3af; }
svg.latency .p50 { stroke: #111827; stroke-width: 1.5; } svg.latency .p99 { stroke: #dc2626; stroke-width: 1.5; stroke-dasharray: 4 3; }
.quantiles { font-size: 12px; font-variant-numeric: tabular-nums; white-space: nowrap; }
.quantiles .p50 { font-weight: 600; } .quantiles .p99 { font-weight: 600; color: #dc2626; }
`;

/** The report page: the data as JSON, then uPlot and the script that draws the page from the JSON. */
export function renderReport(data: BackupStatsReport): string {
  // `<` escaped so that no value can end the script element; JSON.parse reads it back as it was.
  const json = JSON.stringify(data).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${POLICY}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>backupstats report</title>
<style>${UPLOT_CSS}</style>
<style>${STYLE}</style>
</head>
<body>
<h1>Where the time goes</h1>
<p id="meta"></p>
<noscript>This page draws its tables and charts with JavaScript; its data is in the script element backupstats-report.</noscript>
<h2>Runs</h2>
<section id="runs"></section>
<h2>Busy share of every stage, per run</h2>
<section id="stages"></section>
<h2>Over the course of the process</h2>
<section id="throughput"></section>
<h2>Latency per operation</h2>
<section id="latency"></section>
<h2>Storage requests</h2>
<section id="storage"></section>
<h2>Every series, as exported</h2>
<section id="series"></section>
<script type="application/json" id="backupstats-report">${json}</script>
<script>${UPLOT_JS}</script>
<script>${PAGE_SCRIPT}</script>
</body>
</html>
`;
}
