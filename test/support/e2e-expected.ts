import type { ScopeTotal } from '../fixtures/workload.mjs';
import { seriesKey } from './otlp-receiver.js';

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
export function expectedSeries(totals: readonly ScopeTotal[], naming: 'otel' | 'vitess', prefix = ''): ExpectedSeries[] {
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
