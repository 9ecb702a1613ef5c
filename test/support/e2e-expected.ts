import type { ScopeTotal } from '../fixtures/workload.mjs';

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
