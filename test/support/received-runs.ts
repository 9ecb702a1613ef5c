// Reading run series from what the OTLP receiver got. A run series is told apart by more than its scope
// (outcome, error.type or reason), which seriesKey leaves out: these match every attribute. An SDK export's run
// series are read with harness.ts (numbers, histograms, keyed by runKey of series-key.ts).
import type { AttributeValue, OtlpReceiver } from './otlp-receiver.js';

function sameAttributes(a: Readonly<Record<string, AttributeValue>>, b: Readonly<Record<string, string>>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}

/** The latest value of the sum or gauge series `metric` with exactly these attributes, as the receiver got it. */
export function latest(
  receiver: OtlpReceiver,
  metric: string,
  attributes: Readonly<Record<string, string>>,
): number | undefined {
  let found: { time: bigint; value: number } | undefined;
  for (const point of receiver.exports.flatMap((e) => e.points)) {
    if (point.metric !== metric || !sameAttributes(point.attributes, attributes)) continue;
    if (found === undefined || point.time >= found.time) found = point;
  }
  return found?.value;
}

/** A histogram metric of a decoded ExportMetricsServiceRequest (the receiver flattens only sums and gauges). */
interface DecodedMetric {
  name: string;
  histogram?: {
    dataPoints: {
      count: string;
      explicitBounds?: number[];
      attributes: { key: string; value: { stringValue?: string } }[];
    }[];
  };
}
interface DecodedRequest {
  resourceMetrics: { scopeMetrics: { metrics: DecodedMetric[] }[] }[];
}

/** The latest count and bucket boundaries of the histogram series with this outcome, as the receiver got it. */
export function histogramPoint(
  receiver: OtlpReceiver,
  metric: string,
  outcome: string,
): { count: number; bounds: number[] } | undefined {
  let found: { count: number; bounds: number[] } | undefined;
  for (const { request } of receiver.exports) {
    const metrics = (request as DecodedRequest).resourceMetrics.flatMap((rm) =>
      rm.scopeMetrics.flatMap((sm) => sm.metrics),
    );
    for (const point of metrics.find((m) => m.name === metric)?.histogram?.dataPoints ?? []) {
      if (point.attributes.some((a) => a.key === 'outcome' && a.value.stringValue === outcome)) {
        found = { count: Number(point.count), bounds: point.explicitBounds ?? [] };
      }
    }
  }
  return found;
}

/**
 * What test/fixtures/run-job.mjs records besides its backup runs, as the receiver got it: the backup's stored bytes
 * (its destination writes), the verify run's warning and partial end, and the prune run with its two deletions.
 * Fails the test on any difference.
 */
export function verifyAndPruneOfRunJob(receiver: OtlpReceiver): Record<string, number | undefined> {
  const backup = { component: 'BackupEngine', implementation: 'Builtin', operation: 'Backup' };
  const verify = { ...backup, operation: 'Verify' };
  const prune = { component: 'BackupStorage', implementation: 'File', operation: 'Prune' };
  return {
    backupStored: latest(receiver, 'backup.last_success.stored_bytes', backup),
    verifyPartial: latest(receiver, 'verify.runs', { ...verify, outcome: 'partial', 'error.type': 'corrupted' }),
    verifySuccess: latest(receiver, 'verify.runs', { ...verify, outcome: 'success' }),
    verifyWarnings: latest(receiver, 'verify.run.warnings', { ...verify, 'error.type': 'corrupted' }),
    verifyLastSuccess: latest(receiver, 'verify.last_success.timestamp', verify),
    verifyPartialAfterBackup:
      (latest(receiver, 'verify.last_partial.timestamp', verify) ?? 0) >=
      (latest(receiver, 'backup.last_success.timestamp', backup) ?? Number.POSITIVE_INFINITY)
        ? 1
        : 0,
    pruneSuccess: latest(receiver, 'prune.runs', { ...prune, outcome: 'success' }),
    pruneDeletes: latest(receiver, 'prune.operations', { ...prune, operation: 'Prune:Delete' }),
    pruneReclaimed: latest(receiver, 'prune.bytes', { ...prune, operation: 'Prune:Delete' }),
  };
}

/** What {@link verifyAndPruneOfRunJob} reads when every value arrived exactly. */
export const RUN_JOB_VERIFY_AND_PRUNE: Record<string, number | undefined> = {
  backupStored: 1024,
  verifyPartial: 1,
  verifySuccess: 0,
  verifyWarnings: 1,
  verifyLastSuccess: undefined,
  verifyPartialAfterBackup: 1,
  pruneSuccess: 1,
  pruneDeletes: 2,
  pruneReclaimed: 1024,
};
