// Every data point an OTLP receiver got, of every kind (sum, gauge, histogram, exponential histogram), with its
// interval: start and end in nanoseconds as the wire carried them, and its temporality. For the checks that a
// point's start is before its end and that delta points add up to the truth.
import type { OtlpReceiver } from './otlp-receiver.js';

type Plain = Record<string, unknown>;
const asArray = (value: unknown): Plain[] => (Array.isArray(value) ? (value as Plain[]) : []);

/** One decoded point with its interval. */
export interface IntervalPoint {
  readonly metric: string;
  readonly kind: 'sum' | 'gauge' | 'histogram' | 'exponentialHistogram';
  /** OTLP AggregationTemporality: 1 delta, 2 cumulative; 0 for gauges. */
  readonly temporality: number;
  /** Attribute values that are strings, by key. */
  readonly attributes: Readonly<Record<string, string>>;
  readonly start: bigint;
  readonly end: bigint;
  /** A sum's or gauge's value; a histogram's count. */
  readonly value: number;
  /** A histogram's sum. */
  readonly sum: number | undefined;
  readonly min: number | undefined;
  readonly max: number | undefined;
}

const KINDS = ['sum', 'gauge', 'histogram', 'exponentialHistogram'] as const;

/** Every point of every export the receiver accepted, in arrival order. */
export function intervalPoints(receiver: OtlpReceiver): IntervalPoint[] {
  const out: IntervalPoint[] = [];
  for (const { request } of receiver.exports) {
    for (const rm of asArray((request as Plain).resourceMetrics)) {
      for (const sm of asArray(rm.scopeMetrics)) {
        for (const m of asArray(sm.metrics)) {
          const kind = KINDS.find((k) => m[k] !== undefined);
          if (kind === undefined) continue;
          const data = m[kind] as Plain;
          for (const dp of asArray(data.dataPoints)) {
            const attributes: Record<string, string> = {};
            for (const kv of asArray(dp.attributes)) {
              const v = (kv.value ?? {}) as Plain;
              if (typeof v.stringValue === 'string') attributes[String(kv.key)] = v.stringValue;
            }
            const number = dp.asDouble !== undefined ? Number(dp.asDouble) : Number(dp.asInt ?? dp.count ?? 0);
            out.push({
              metric: String(m.name),
              kind,
              temporality: Number(data.aggregationTemporality ?? 0),
              attributes,
              start: BigInt(String(dp.startTimeUnixNano ?? '0')),
              end: BigInt(String(dp.timeUnixNano ?? '0')),
              value: number,
              sum: dp.sum === undefined ? undefined : Number(dp.sum),
              min: dp.min === undefined ? undefined : Number(dp.min),
              max: dp.max === undefined ? undefined : Number(dp.max),
            });
          }
        }
      }
    }
  }
  return out;
}

/** A point for a message: `backup.operations{Source:Read} sum t=1 start … end … (Δ µs) value`. */
export function describePoint(p: IntervalPoint): string {
  const micros = (p.end - p.start) / 1000n;
  const labels = Object.values(p.attributes).join(',');
  return `${p.metric}{${labels}} ${p.kind} temporality=${p.temporality} start=${p.start} end=${p.end} (${micros} µs) value=${p.value}${p.sum === undefined ? '' : ` sum=${p.sum}`}`;
}
