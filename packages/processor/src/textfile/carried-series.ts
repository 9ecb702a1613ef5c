import { type Family, formatFamilies, parseFamilies, sampleLabels, sampleName } from './exposition-text.js';

/**
 * The gauges a run leaves for the next one, in every family: when the last run succeeded, failed or ended partial,
 * and the bytes of the last success (`backup_last_success_timestamp`, `…_last_failure_timestamp`,
 * `…_last_partial_timestamp`, `…_last_success_bytes`, `…_last_success_stored_bytes`, under either naming and any
 * prefix). Counters and histograms are not carried: a new process starts them again from zero, which Prometheus
 * reads as the reset it is.
 */
const CARRIED = /_last_(success|failure|partial)_/;

/** The families of a previous run's file that the next run carries until it has values of its own. */
export function carriedFamilies(previous: string): Family[] {
  return parseFamilies(previous).filter((family) => family.type === 'gauge' && CARRIED.test(family.name));
}

/**
 * `current` (an exposition) with the `carried` series it does not have: a series of a carried family is kept
 * until the current text has one with the same name and labels (the version of the library, in `otel_scope_*`,
 * does not count), and a carried family the current text lacks is added whole.
 */
export function withCarried(current: string, carried: readonly Family[]): string {
  if (carried.length === 0) return current;
  const families = parseFamilies(current);
  const byName = new Map(families.map((family) => [family.name, family]));
  const out = families.map((family) => ({ ...family, samples: [...family.samples] }));
  const outByName = new Map(out.map((family) => [family.name, family]));
  for (const old of carried) {
    const now = byName.get(old.name);
    if (now === undefined) {
      out.push(old);
      continue;
    }
    const present = new Set(now.samples.map(seriesKey));
    const merged = outByName.get(old.name) as Family;
    for (const line of old.samples) if (!present.has(seriesKey(line))) merged.samples.push(line);
  }
  return formatFamilies(out);
}

function seriesKey(line: string): string {
  const labels = Object.entries(sampleLabels(line))
    .filter(([name]) => !name.startsWith('otel_scope_'))
    .sort(byName);
  return `${sampleName(line)}${JSON.stringify(labels)}`;
}

/** Label pairs in the order of their names. */
function byName([a]: readonly [string, string], [b]: readonly [string, string]): number {
  // Stryker disable next-line EqualityOperator: a line's label names are unique, and either order makes one key of one set
  return a < b ? -1 : 1;
}
