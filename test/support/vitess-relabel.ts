// The relabel rule that docs/naming.md gives for Vitess dashboards, read from the doc itself, so that the tests
// scrape with exactly what users copy and the two cannot drift apart.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const NAMING_DOC = fileURLToPath(new URL('../../docs/naming.md', import.meta.url));

/**
 * The list items of the `metric_relabel_configs:` YAML block of docs/naming.md, indented by six spaces as
 * startPrometheus's `metricRelabelConfigs` wants them. Throws when the doc has no such block.
 */
export function vitessRelabelConfigs(): string {
  const doc = readFileSync(NAMING_DOC, 'utf8');
  const block = /^```yaml\nmetric_relabel_configs:\n([\s\S]*?)^```$/m.exec(doc)?.[1];
  if (block === undefined || !block.includes('regex:')) {
    throw new Error(`${NAMING_DOC} has no \`\`\`yaml block starting with metric_relabel_configs:`);
  }
  return block
    .trimEnd()
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');
}

/** The series Prometheus adds to every scrape job. */
export const SCRAPE_SERIES: readonly string[] = [
  'up',
  'scrape_duration_seconds',
  'scrape_samples_scraped',
  'scrape_samples_post_metric_relabeling',
  'scrape_series_added',
];

/** The metric names of every sample a Prometheus endpoint (`http://host:port/metrics`) exposes, read from its text. */
export async function exposedNames(url: string): Promise<string[]> {
  const text = await (await fetch(url)).text();
  const names = text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => /^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(line)?.[0] ?? line);
  return [...new Set(names)];
}

/**
 * The names of the per-operation counters of `families` (default all four, twelve counters) under Vitess naming with
 * `prefix`, as the relabel rule leaves them.
 */
export function vitessCounterNames(
  prefix: string,
  families: readonly string[] = ['backup', 'restore', 'verify', 'prune'],
): string[] {
  return families.flatMap((family) =>
    ['count', 'bytes', 'duration_nanoseconds'].map((unit) => `${prefix}${family}_${unit}`),
  );
}

/**
 * The names Prometheus should hold for a job that exposes `exposed`, after the relabel rule: the exposed ones with
 * exactly the per-operation counters of `prefix` without `_total`, sorted.
 */
export function namesAfterRelabel(exposed: readonly string[], prefix: string): string[] {
  const renamed = new Set(vitessCounterNames(prefix).map((name) => `${name}_total`));
  return [...new Set(exposed.map((name) => (renamed.has(name) ? name.slice(0, -'_total'.length) : name)))].sort();
}
