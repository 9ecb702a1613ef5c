// @ts-nocheck
// What a Pushgateway group holds, next to what a job recorded (test/support/e2e-expected.ts).
import { type ExpectedSeries, matches, PROMETHEUS_NAMES } from '../e2e-expected.js';
import { hasLabels, type Sample } from './exposition.js';

/** The samples of one group: those with every grouping label given (job, instance, …). */
export function groupSamples(samples: readonly Sample[], group: Readonly<Record<string, string>>): Sample[] {
  return samples.filter((sample) => hasLabels(sample, group));
}

/**
 * Every expected series the group lacks or holds with another value, described, and every sample of those metric
 * names in the group that no expected series accounts for; empty when the group holds exactly what was recorded.
 */
export function groupMismatches(
  samples: readonly Sample[],
  group: Readonly<Record<string, string>>,
  expected: readonly ExpectedSeries[],
): string[] {
  const inGroup = groupSamples(samples, group);
  const out: string[] = [];
  const accounted = new Set<Sample>();
  for (const series of expected) {
    const name = PROMETHEUS_NAMES[series.metric] ?? series.metric;
    const found = inGroup.filter((sample) => sample.name === name && hasLabels(sample, series.labels));
    for (const sample of found) accounted.add(sample);
    const value = found.length === 1 ? found[0]?.value : undefined;
    if (found.length > 1) out.push(`${name}${JSON.stringify(series.labels)}: ${found.length} samples`);
    else if (!matches(series, value))
      out.push(`${name}${JSON.stringify(series.labels)}: got ${value}, expected ${series.value}`);
  }
  const names = new Set(expected.map((series) => PROMETHEUS_NAMES[series.metric] ?? series.metric));
  for (const sample of inGroup) {
    if (names.has(sample.name) && !accounted.has(sample))
      out.push(`unexpected ${sample.name}${JSON.stringify(sample.labels)}`);
  }
  return out;
}

/** The value of the one sample named `name` with `labels` (a group's and more), undefined when there is none. */
export function sampleValue(
  samples: readonly Sample[],
  name: string,
  labels: Readonly<Record<string, string>>,
): number | undefined {
  const found = samples.filter((sample) => sample.name === name && hasLabels(sample, labels));
  if (found.length > 1) throw new Error(`${found.length} samples of ${name}${JSON.stringify(labels)}`);
  return found[0]?.value;
}
