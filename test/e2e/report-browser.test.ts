// The demo's report in a real browser: Debian's headless Chromium through playwright-core. The page loads with no
// console error and no request beyond its own file, every chart is drawn, every number on it is the embedded data's,
// and the data's totals are what the OpenTelemetry pipeline exported. Its screenshot is kept: reports/browser/ (or
// BACKUPSTATS_SCREENSHOT_PATH; `pnpm screenshot` writes docs/images/report.png, the README's picture).
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { type BackupStatsReport, renderReport, reportData } from 'backupstats/report';
import { afterAll, expect, onTestFinished } from 'vitest';
import { readSummary, runCli } from '../../packages/examples/test-support/run-cli.js';
import { it } from '../support/fixtures.js';
import { statsWithHistograms } from '../support/histogram-stats.js';
import { CHROMIUM, chartLegends, closeBrowser, drawnCharts, layoutOf, openReport } from '../support/report-browser.js';

const SCREENSHOT = resolve(process.env.BACKUPSTATS_SCREENSHOT_PATH ?? 'reports/browser/report.png');
// 16 MiB give every chart its points and every run its stages, at a third of the demo's CPU for 48 MiB; the README's
// picture (`pnpm screenshot`) keeps the longer run, whose throughput over time has more to show.
const DEMO_SIZE = process.env.BACKUPSTATS_SCREENSHOT_PATH === undefined ? '16MiB' : '48MiB';

// The page script's formats, as the page must show each kind of number.
const FORMATS: Record<string, (v: number) => string> = {
  seconds: (v) => `${v.toFixed(3)} s`,
  bytes: (v) => `${Math.round(v).toLocaleString('en-US')} B`,
  rate: (v) => `${(v / 1048576).toFixed(2)} MiB/s`,
  share: (v) => `${(v * 100).toFixed(1)} %`,
  count: (v) => Math.round(v).toLocaleString('en-US'),
  ms: (v) => `${(v * 1000).toFixed(3)} ms`,
  ratio: (v) => v.toFixed(3),
};

function at(data: unknown, key: string): unknown {
  return key.split('.').reduce<unknown>((value, part) => (value as Record<string, unknown>)[part], data);
}

const NO_BROWSER = !existsSync(CHROMIUM) && process.env.BACKUPSTATS_REQUIRE_E2E !== '1';
// One Chromium for the file's reports, each in a context of its own.
afterAll(closeBrowser);

it.skipIf(NO_BROWSER)(
  "the demo's report: no error, no request, every chart drawn, the numbers of its data",
  { timeout: 180_000 },
  async () => {
    const dir = await mkdtemp(join(tmpdir(), 'backupstats-report-'));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const path = join(dir, 'report.html');
    const summaryPath = join(dir, 'summary.json');
    // Flushes ten times a second, so that the throughput over the run has points to draw.
    const demo = await runCli(['--size', DEMO_SIZE, '--quiet', '--report', path, '--summary-json', summaryPath], {
      env: { BACKUPSTATS_FLUSH_INTERVAL_MS: '100' },
      timeoutMs: 120_000,
    });
    expect(demo.code, demo.stderr).toBe(0);
    expect(demo.stdout).toContain(`report: ${path}`);

    const html = await readFile(path, 'utf8');
    const json = /<script type="application\/json" id="backupstats-report">([^<]*)<\/script>/.exec(html)?.[1];
    const data = JSON.parse(json as string) as BackupStatsReport;
    expect(data).toMatchObject({ schema: 'backupstats-report', version: 1, timelineKept: true });
    expect(data.runs.map((r) => [r.family, r.outcome])).toEqual([
      ['backup', 'success'],
      ['restore', 'success'],
      ['verify', 'success'],
      ['prune', 'success'],
    ]);
    // The backup stored what it uploaded, less than it read: the row shows both and their ratio.
    const [backup] = data.runs;
    expect(backup?.storedBytes).toBeGreaterThan(0);
    expect(backup?.storedRatio).toBeCloseTo((backup?.storedBytes ?? 0) / (backup?.bytes ?? 1), 5);
    expect(backup?.storedRatio).toBeLessThan(1);
    // The verify and prune runs of the demo have no stage of their own to bound them.
    for (const run of data.runs.filter((r) => r.family === 'backup' || r.family === 'restore')) {
      expect(run.bottleneck, run.family).not.toBeNull();
      // The demo says the same sentence.
      expect(demo.stdout).toContain(`${run.family} success: ${run.bottleneck?.sentence}`);
    }
    // The page's totals are the exported ones.
    for (const scope of await readSummary(summaryPath)) {
      const series = data.series.find(
        (s) => s.family === scope.family && s.component === scope.component && s.operation === scope.operation,
      );
      expect(series, `${scope.family} ${scope.component} ${scope.operation}`).toMatchObject({
        count: scope.operations,
        bytes: scope.bytes,
      });
      expect(series?.seconds).toBeCloseTo(scope.seconds, 5);
    }

    const { page, errors, requests } = await openReport(path);
    expect(errors).toEqual([]);
    expect(requests).toEqual([]);
    const charts = await drawnCharts(page);
    // One latency panel per operation of the latency table, each with its distribution's bars.
    expect(charts.map((c) => c.chart)).toEqual([
      'bytesPerSecond',
      'busyShare',
      'shares',
      'shares',
      ...data.latency.map((l) => `latency ${l.family} ${l.operation}`),
    ]);
    for (const chart of charts) expect(chart.drawn, chart.chart).toBeGreaterThan(0);
    // One operation has one colour on the page: the throughput and busy-share charts agree, and no chart gives two
    // of its operations the same colour.
    const legends = await chartLegends(page);
    const colourMap = (chart: string) => new Map(legends.find((l) => l.chart === chart)?.colours);
    const [throughputColours, busyColours] = [colourMap('bytesPerSecond'), colourMap('busyShare')];
    const inBoth = [...throughputColours.keys()].filter((label) => busyColours.has(label));
    expect(inBoth.length).toBeGreaterThan(1);
    for (const label of inBoth) expect(busyColours.get(label), label).toBe(throughputColours.get(label));
    for (const colours of [throughputColours, busyColours]) expect(new Set(colours.values()).size).toBe(colours.size);

    const shown = await page.$$eval('[data-key]', (cells) =>
      cells.map((cell) => ({
        key: cell.getAttribute('data-key') ?? '',
        format: cell.getAttribute('data-format') ?? '',
        text: cell.textContent ?? '',
      })),
    );
    expect(shown.length).toBeGreaterThan(data.series.length * 3);
    for (const { key, format, text } of shown) expect(text, key).toBe(FORMATS[format]?.(at(data, key) as number));
    const sentences = await page.$$eval('p.sentence', (ps) => ps.map((p) => p.textContent));
    expect(sentences).toEqual(data.runs.map((r) => r.bottleneck?.sentence ?? 'No stage moved during this run.'));

    // In a window 1200 pixels wide the page does not scroll sideways, and no number or time wraps.
    await page.setViewportSize({ width: 1200, height: 900 });
    expect(await layoutOf(page)).toEqual({ overflow: 0, wrapped: [] });

    await mkdir(dirname(SCREENSHOT), { recursive: true });
    // The whole page at a README's width: runs, busy shares and bottlenecks, charts, latency panels, series.
    await page.setViewportSize({ width: 1000, height: 900 });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    expect(existsSync(SCREENSHOT)).toBe(true);
  },
);

it.skipIf(NO_BROWSER)(
  'a report of labels too long for a line: no sideways scroll at 1200 pixels, no number or time wrapped',
  { timeout: 60_000 },
  async () => {
    const dir = await mkdtemp(join(tmpdir(), 'backupstats-report-'));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const { stats } = statsWithHistograms();
    const engine = stats.backup.scope({ component: 'BackupEngine', implementation: `Impl${'y'.repeat(80)}` });
    const long = engine.scope({ operation: `Destination:Write-${'x'.repeat(150)}` });
    const read = engine.scope({ operation: 'Source:Read' });
    const run = engine.scope({ operation: 'Backup' }).startRun();
    for (let i = 0; i < 50; i++) {
      long.timedIncrementBytes(1_000_000, 1 + i);
      read.timedIncrementBytes(123_456_789, 0.1 * i);
      stats.flush();
    }
    run.succeed();
    const path = join(dir, 'report.html');
    await writeFile(path, renderReport(reportData(stats)));

    const { page, errors } = await openReport(path);
    expect(errors).toEqual([]);
    await page.setViewportSize({ width: 1200, height: 900 });
    expect(await layoutOf(page)).toEqual({ overflow: 0, wrapped: [] });
  },
);
