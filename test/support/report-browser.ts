// Debian's Chromium, driven by playwright-core (no browser download), for the report page: what the page logged as
// an error, every request it made, and whether each chart has something drawn. The browser test and
// `pnpm screenshot` share it.
import { pathToFileURL } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { onTestFinished } from 'vitest';

/** Debian's chromium package; CHROMIUM_BIN for another. */
export const CHROMIUM = process.env.CHROMIUM_BIN ?? '/usr/bin/chromium';

const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A report page open in a fresh headless Chromium, closed when the test ends. */
export interface OpenedReport {
  readonly page: Page;
  /** Console errors and uncaught exceptions, in order. */
  readonly errors: readonly string[];
  /** Every request but the page's own file. */
  readonly requests: readonly string[];
}

let browser: Promise<Browser> | undefined;

/**
 * The test file's Chromium, started by its first {@link openReport}: a start costs about 2.5 s of CPU, and a
 * context of its own keeps each report apart (its own storage, cache and permissions, as a fresh profile would).
 * A file that opens reports closes it with `afterAll(closeBrowser)`.
 */
function sharedBrowser(): Promise<Browser> {
  browser ??= chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
  return browser;
}

/** Closes the browser {@link openReport} started, if it did. */
export async function closeBrowser(): Promise<void> {
  const started = browser;
  browser = undefined;
  // A browser that failed to start failed its test already.
  await started?.then(
    (running) => running.close(),
    () => {},
  );
}

/** Opens the report at `path` in a new context of the file's browser, once its script has drawn the page. */
export async function openReport(path: string): Promise<OpenedReport> {
  const context = await (await sharedBrowser()).newContext({ viewport: { width: 1000, height: 900 } });
  onTestFinished(() => context.close());
  const url = pathToFileURL(path).href;
  const errors: string[] = [];
  const requests: string[] = [];
  context.on('request', (request) => {
    if (request.url() !== url) requests.push(request.url());
  });
  const page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(String(error)));
  await page.goto(url);
  await page.waitForSelector('body[data-drawn="true"]');
  return { page, errors, requests };
}

// Run in the page (as text: the tests are type-checked without the DOM's types).
const DRAWN_CHARTS = `(() => {
  const charts = [];
  for (const holder of document.querySelectorAll('.uplot-holder')) {
    let drawn = 0;
    for (const canvas of holder.querySelectorAll('canvas')) {
      const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
      for (let i = 3; i < pixels.length; i += 4) if (pixels[i] > 0) drawn += 1;
    }
    charts.push({ chart: holder.getAttribute('data-chart') ?? '?', drawn });
  }
  for (const svg of document.querySelectorAll('svg.shares')) {
    const bars = [...svg.querySelectorAll('rect')].filter((rect) => Number(rect.getAttribute('width')) > 0);
    charts.push({ chart: 'shares', drawn: bars.length });
  }
  for (const svg of document.querySelectorAll('svg.latency')) {
    const bars = [...svg.querySelectorAll('rect')].filter((rect) => Number(rect.getAttribute('height')) > 0);
    charts.push({ chart: 'latency ' + svg.closest('figure').getAttribute('data-operation'), drawn: bars.length });
  }
  return charts;
})()`;

/**
 * For every chart of the page: its kind and how many of its pixels (canvas) or bars (SVG) are drawn. A latency
 * panel's kind is `latency <family> <operation>`.
 */
export function drawnCharts(page: Page): Promise<{ chart: string; drawn: number }[]> {
  return page.evaluate<{ chart: string; drawn: number }[]>(DRAWN_CHARTS);
}

// Run in the page: the page's width beyond the window's, and the cells whose text takes more than one line.
const LAYOUT = `(() => {
  const lines = (cell) => {
    const range = document.createRange();
    range.selectNodeContents(cell);
    return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
  };
  return {
    overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    wrapped: [...document.querySelectorAll('td.num, td.time')].filter((cell) => lines(cell) > 1).map((cell) => cell.textContent),
  };
})()`;

/** How far the page scrolls sideways (0: not at all), and the numbers and times that wrap onto a second line. */
export function layoutOf(page: Page): Promise<{ overflow: number; wrapped: string[] }> {
  return page.evaluate<{ overflow: number; wrapped: string[] }>(LAYOUT);
}

// Run in the page: each line chart's legend, as its operations' labels and their marker colours.
const LEGENDS = `(() => [...document.querySelectorAll('.uplot-holder')].map((holder) => ({
  chart: holder.getAttribute('data-chart') ?? '?',
  colours: [...holder.querySelectorAll('.u-legend .u-series')].slice(1).map((row) => [
    row.querySelector('.u-label')?.textContent ?? '',
    getComputedStyle(row.querySelector('.u-marker')).borderColor,
  ]),
})))()`;

/** The legend of every line chart: its kind and, per operation shown, the label and the colour of its line. */
export function chartLegends(page: Page): Promise<{ chart: string; colours: [string, string][] }[]> {
  return page.evaluate<{ chart: string; colours: [string, string][] }[]>(LEGENDS);
}
