// @ts-nocheck
import { expect } from 'vitest';
import type { ScopeTotal } from '../fixtures/workload.mjs';
import type { PrometheusServer, PromSample } from './prometheus.js';
import { seriesKey } from './series-key.js';

/** One series a backend should hold after the workload: OpenTelemetry metric name, labels, value. */
export interface ExpectedSeries {
  readonly metric: string;
  readonly labels: { readonly component: string; readonly implementation: string; readonly operation: string };
  readonly value: number;
  /** True when the value is a sum of doubles (seconds), compared with a relative tolerance. */
  readonly approximate: boolean;
}

/**
 * The series the library must produce from what a workload recorded, under a naming preset and prefix.
 * A scope recorded without bytes has no bytes series.
 */
export function expectedSeries(
  totals: readonly ScopeTotal[],
  naming: 'otel' | 'vitess',
  prefix = '',
): ExpectedSeries[] {
  const out: ExpectedSeries[] = [];
  for (const t of totals) {
    const labels = { component: t.component, implementation: t.implementation, operation: t.operation };
    const name = (suffix: string) =>
      naming === 'otel' ? `${prefix}${t.family}.${suffix}` : `${prefix}${t.family}_${suffix}`;
    out.push({ metric: name(naming === 'otel' ? 'operations' : 'count'), labels, value: t.count, approximate: false });
    if (t.bytes > 0) out.push({ metric: name('bytes'), labels, value: t.bytes, approximate: false });
    if (naming === 'otel') out.push({ metric: name('time'), labels, value: t.ms / 1000, approximate: true });
    else out.push({ metric: name('duration_nanoseconds'), labels, value: t.ns, approximate: false });
  }
  return out;
}

/** True when `actual` equals `expected`, within 1e-9 relative for sums of doubles. */
export function matches(series: ExpectedSeries, actual: number | undefined): boolean {
  if (actual === undefined) return false;
  if (!series.approximate) return actual === series.value;
  return Math.abs(actual - series.value) <= 1e-9 * Math.max(1, Math.abs(series.value));
}

/**
 * Every expected series whose value in `actual` (series key → value, as {@link seriesKey} builds it) is
 * missing or different, described; empty when all match.
 */
export function mismatches(expected: readonly ExpectedSeries[], actual: ReadonlyMap<string, number>): string[] {
  const out: string[] = [];
  for (const series of expected) {
    const key = seriesKey(series.metric, series.labels);
    const value = actual.get(key);
    if (!matches(series, value)) out.push(`${key}: got ${value}, expected ${series.value}`);
  }
  return out;
}

/**
 * What the OpenTelemetry Prometheus exporter calls each counter in the exposition: dots become underscores
 * and counters get `_total`; no unit suffix. This is the table docs/naming.md documents.
 */
export const PROMETHEUS_NAMES: Readonly<Record<string, string>> = {
  'backup.operations': 'backup_operations_total',
  'backup.bytes': 'backup_bytes_total',
  'backup.time': 'backup_time_total',
  'restore.operations': 'restore_operations_total',
  'restore.bytes': 'restore_bytes_total',
  'restore.time': 'restore_time_total',
  vtbackup_backup_count: 'vtbackup_backup_count_total',
  vtbackup_backup_bytes: 'vtbackup_backup_bytes_total',
  vtbackup_backup_duration_nanoseconds: 'vtbackup_backup_duration_nanoseconds_total',
  vtbackup_restore_count: 'vtbackup_restore_count_total',
  vtbackup_restore_bytes: 'vtbackup_restore_bytes_total',
  vtbackup_restore_duration_nanoseconds: 'vtbackup_restore_duration_nanoseconds_total',
};

function labelsKey(labels: Readonly<Record<string, string | undefined>>): string {
  return JSON.stringify([labels.component, labels.implementation, labels.operation]);
}

/**
 * Waits until Prometheus holds every expected series with its exact value, then checks that it holds no
 * other series of those metric names. Returns the samples by Prometheus name.
 */
export async function expectScraped(
  prometheus: PrometheusServer,
  expected: readonly ExpectedSeries[],
  names: Readonly<Record<string, string>> = PROMETHEUS_NAMES,
): Promise<Map<string, PromSample[]>> {
  const byName = new Map<string, ExpectedSeries[]>();
  for (const series of expected) {
    const promName = names[series.metric];
    expect(promName, `no Prometheus name known for ${series.metric}`).toBeDefined();
    byName.set(promName as string, [...(byName.get(promName as string) ?? []), series]);
  }
  const scraped = new Map<string, PromSample[]>();
  for (const [promName, want] of byName) {
    const exact = (samples: PromSample[]) =>
      want.every((series) => {
        const sample = samples.find((s) => labelsKey(s.metric) === labelsKey(series.labels));
        return matches(series, sample?.value);
      });
    let samples: PromSample[];
    try {
      samples = await prometheus.waitForSamples(`{__name__="${promName}"}`, exact);
    } catch (error) {
      throw new Error(`${promName}: ${(error as Error).message}\nexpected: ${JSON.stringify(want)}`);
    }
    expect(samples.map((s) => labelsKey(s.metric)).sort()).toEqual(want.map((s) => labelsKey(s.labels)).sort());
    scraped.set(promName, samples);
  }
  return scraped;
}
