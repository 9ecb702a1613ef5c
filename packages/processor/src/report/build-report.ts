import type { Attributes } from '@opentelemetry/api';
import { VERSION } from '../api/version.js';
import type { Family } from '../naming/naming-types.js';
import type { FamilyTimeline, TimedSeries } from '../timeline/family-timeline.js';
import type { RunProfile } from '../timeline/run-profile.js';
import type { StatsTimeline } from '../timeline/stats-timeline.js';
import { bottleneckOf, isStage } from './bottleneck.js';
import { operationTimelines, round } from './operation-timelines.js';
import { type Buckets, quantile } from './quantiles.js';
import {
  type BackupStatsReport,
  CHARTED_OPERATIONS,
  REPORT_VERSION,
  type ReportLabels,
  type ReportLatency,
  type ReportRun,
  type ReportS3,
  type ReportSeries,
  type ReportStage,
  type ReportStorage,
  RUN_STAGES,
} from './report-schema.js';

/** The report's data from a stats instance's timeline, after a flush so that it holds every measurement. */
export function buildReport(timeline: StatsTimeline): BackupStatsReport {
  timeline.flush();
  const boundaries = timeline.histogramBoundaries ?? [];
  const timed = timeline.families.flatMap((family) => family.timedSeries().map((s) => ({ family, ...s })));
  const series = timed.map(({ family, handle, timeline: t }) => {
    const h = handle.histogram;
    const buckets = h === undefined ? undefined : bucketsOf(boundaries, h.explicitCounts(), h.minMillis, h.maxMillis);
    return {
      ...labelsOf(family.family, handle.attributes),
      overflow: handle.attributes['otel.metric.overflow'] === true,
      count: t.count,
      bytes: t.bytes,
      seconds: round(t.millis / 1000),
      p50: buckets === undefined ? null : rounded(quantile(buckets, 0.5)),
      p90: buckets === undefined ? null : rounded(quantile(buckets, 0.9)),
      p99: buckets === undefined ? null : rounded(quantile(buckets, 0.99)),
    } satisfies ReportSeries;
  });
  // The whole run's own series moves once, at its end: no throughput over time to show.
  const charted = topOperations(
    series.filter((s) => isStage(s.operation)),
    (s) => s.seconds,
  );
  const { times, timelines } = operationTimelines(
    timed
      .filter(({ family, handle }) =>
        charted.has(operationKey(family.family, labelsOf(family.family, handle.attributes).operation)),
      )
      .map(({ family, handle, timeline: t }) => ({
        family: family.family,
        operation: labelsOf(family.family, handle.attributes).operation,
        samples: t.toArray(),
      })),
  );
  return {
    schema: 'backupstats-report',
    version: REPORT_VERSION,
    library: { name: 'backupstats', version: VERSION },
    createdAt: timeline.createdAt,
    generatedAt: Date.now(),
    timelineKept: timeline.kept,
    runs: timeline.families.flatMap((family) => family.runs().map(reportRun)).sort((a, b) => a.startedAt - b.startedAt),
    series,
    times,
    timelines,
    boundaries,
    latency: latencyByOperation(
      timed,
      boundaries,
      topOperations(series, (s) => s.count),
    ),
    s3: s3Of(series),
    storage: storageOf(series),
  };
}

/**
 * The operations (of a family) a chart shows: at most {@link CHARTED_OPERATIONS}, those with the most of `weight`
 * summed over their series, so that the page of thousands of series stays small and its charts readable.
 */
function topOperations(series: readonly ReportSeries[], weight: (s: ReportSeries) => number): Set<string> {
  const sums = new Map<string, number>();
  for (const s of series)
    sums.set(operationKey(s.family, s.operation), (sums.get(operationKey(s.family, s.operation)) ?? 0) + weight(s));
  const top = [...sums].sort((a, b) => b[1] - a[1]).slice(0, CHARTED_OPERATIONS);
  return new Set(top.map(([key]) => key));
}

function operationKey(family: Family, operation: string): string {
  return `${family}\u0000${operation}`;
}

function reportRun(run: RunProfile): ReportRun {
  const millis = run.seconds * 1000;
  const stages: ReportStage[] = run.stages
    .map((stage) => ({
      ...labelsOf(run.family, stage.attributes),
      count: stage.count,
      bytes: stage.bytes,
      seconds: round(stage.millis / 1000),
      busyShare: millis > 0 ? round(stage.millis / millis) : 0,
    }))
    .filter((stage) => isStage(stage.operation))
    .sort((a, b) => b.busyShare - a.busyShare);
  return {
    ...labelsOf(run.family, run.attributes),
    outcome: run.outcome,
    reason: run.reason ?? null,
    startedAt: run.startedAt,
    endedAt: run.endedAt,
    seconds: round(run.seconds),
    bytes: run.bytes ?? null,
    storedBytes: run.storedBytes ?? null,
    storedRatio:
      run.storedBytes !== undefined && (run.bytes ?? 0) > 0 ? round(run.storedBytes / (run.bytes as number)) : null,
    bytesPerSecond: run.bytes !== undefined && run.seconds > 0 ? round(run.bytes / run.seconds) : null,
    stages: stages.slice(0, RUN_STAGES),
    bottleneck: bottleneckOf(stages, run.family),
  };
}

function labelsOf(family: Family, attributes: Attributes): ReportLabels {
  const overflow = attributes['otel.metric.overflow'] === true;
  const label = (name: string): string => (overflow ? 'overflow' : String(attributes[name]));
  return {
    family,
    component: label('component'),
    implementation: label('implementation'),
    operation: label('operation'),
  };
}

function bucketsOf(
  boundaries: readonly number[],
  counts: ArrayLike<number>,
  minMillis: number,
  maxMillis: number,
): Buckets {
  return { boundaries, counts, minSeconds: minMillis / 1000, maxSeconds: maxMillis / 1000 };
}

function rounded(value: number | null): number | null {
  // Stryker disable next-line ConditionalExpression: round gives null back as it was (null is no finite number)
  return value === null ? null : round(value);
}

/** Every operation's distribution: its series' explicit buckets summed, per family. */
function latencyByOperation(
  timed: readonly (TimedSeries & { family: FamilyTimeline })[],
  boundaries: readonly number[],
  shown: ReadonlySet<string>,
): ReportLatency[] {
  const sums = new Map<string, { family: Family; operation: string; counts: number[]; min: number; max: number }>();
  for (const { family, handle } of timed) {
    const h = handle.histogram;
    if (h === undefined || h.count === 0) continue;
    const operation = labelsOf(family.family, handle.attributes).operation;
    const key = operationKey(family.family, operation);
    if (!shown.has(key)) continue;
    let sum = sums.get(key);
    if (sum === undefined) {
      sum = {
        family: family.family,
        operation,
        counts: new Array(boundaries.length + 1).fill(0),
        min: Infinity,
        max: -Infinity,
      };
      sums.set(key, sum);
    }
    const counts = h.explicitCounts();
    for (let i = 0; i < counts.length; i++) sum.counts[i] = (sum.counts[i] as number) + (counts[i] as number);
    sum.min = Math.min(sum.min, h.minMillis);
    sum.max = Math.max(sum.max, h.maxMillis);
  }
  return [...sums.values()].map(({ family, operation, counts, min, max }) => {
    const buckets = bucketsOf(boundaries, counts, min, max);
    return {
      family,
      operation,
      count: counts.reduce((a, b) => a + b, 0),
      p50: round(quantile(buckets, 0.5) ?? 0),
      p90: round(quantile(buckets, 0.9) ?? 0),
      p99: round(quantile(buckets, 0.99) ?? 0),
      counts,
    };
  });
}

/** The operations of request attempts: `AWS:Request:*` of backupstats/s3, `HTTP:Request:*` of /azure and /http. */
const ATTEMPT = /^(?:AWS|HTTP):Request:(Send|Failed|Throttled)$/;

/** The attempts per storage implementation, both families summed, most attempts first. */
function storageOf(series: readonly ReportSeries[]): ReportStorage[] {
  const rows = new Map<
    string,
    { attempts: number; failed: number; throttled: number; bytes: number; seconds: number }
  >();
  for (const s of series) {
    const kind = ATTEMPT.exec(s.operation)?.[1];
    if (kind === undefined) continue;
    let row = rows.get(s.implementation);
    if (row === undefined) {
      row = { attempts: 0, failed: 0, throttled: 0, bytes: 0, seconds: 0 };
      rows.set(s.implementation, row);
    }
    if (kind === 'Send') {
      row.attempts += s.count;
      row.bytes += s.bytes;
      row.seconds += s.seconds;
    } else if (kind === 'Failed') row.failed += s.count;
    else row.throttled += s.count;
  }
  return [...rows]
    .filter(([, row]) => row.attempts > 0)
    .map(([implementation, row]) => ({
      implementation,
      attempts: round(row.attempts),
      failed: round(row.failed),
      throttled: round(row.throttled),
      bytes: round(row.bytes),
      seconds: round(row.seconds),
    }))
    .sort((a, b) => b.attempts - a.attempts);
}

/** The S3 attempts of every family, or null when there were none. */
function s3Of(series: readonly ReportSeries[]): ReportS3 | null {
  const of = (operation: string) => series.filter((s) => s.operation === operation);
  const send = of('AWS:Request:Send');
  if (send.length === 0) return null;
  const sum = (list: ReportSeries[], field: 'count' | 'bytes' | 'seconds'): number =>
    round(list.reduce((total, s) => total + s[field], 0));
  return {
    attempts: sum(send, 'count'),
    failed: sum(of('AWS:Request:Failed'), 'count'),
    throttled: sum(of('AWS:Request:Throttled'), 'count'),
    bytes: sum(send, 'bytes'),
    seconds: sum(send, 'seconds'),
  };
}
