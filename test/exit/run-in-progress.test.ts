// A run in progress when the job ends (SIGTERM, SIGINT, or a normal end with the run never finished) is a
// failure with the reason "interrupted", and the final export at shutdown carries it.
import { fileURLToPath } from 'node:url';
import { RUN_DURATION_BOUNDARIES } from 'backupstats';
import { describe, expect } from 'vitest';
import { it } from '../support/fixtures.js';
import { histogramPoint, latest, RUN_JOB_VERIFY_AND_PRUNE, verifyAndPruneOfRunJob } from '../support/received-runs.js';

const fixture = fileURLToPath(new URL('../fixtures/run-job.mjs', import.meta.url));
const LABELS = { component: 'BackupEngine', implementation: 'Builtin', operation: 'Backup' };
/** OTLP to `url` with no periodic export before the shutdown's: only the final export can deliver the runs. */
const finalExportTo = (url: string) => ({
  OTEL_METRICS_EXPORTER: 'otlp',
  OTEL_EXPORTER_OTLP_ENDPOINT: url,
  OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
  OTEL_METRIC_EXPORT_INTERVAL: '600000',
});
/** Exit codes a shell reports for a process killed by the signal (128 + its number). */
const SHELL_CODE = { SIGTERM: 143, SIGINT: 130 } as const;

describe('a run in progress at the end of the job', () => {
  for (const ending of ['SIGTERM', 'SIGINT', 'return'] as const) {
    const how = ending === 'return' ? 'the job ends normally without finishing it' : `the job gets ${ending}`;
    it(`${how}: a failure "interrupted", in the final export`, async ({ startReceiver, startFixture }) => {
      const receiver = await startReceiver('http');
      const child = startFixture(fixture, {
        ...finalExportTo(receiver.url),
        FIXTURE_END: ending === 'return' ? 'return' : 'signal',
      });
      await child.waitForEvent('ready');
      if (ending !== 'return') child.child.kill(ending);
      const end = await child.exited();
      if (ending === 'return') expect(end, child.stderr()).toEqual({ code: 0, signal: null });
      else
        expect(
          end.signal === ending || end.code === SHELL_CODE[ending],
          `${JSON.stringify(end)}\n${child.stderr()}`,
        ).toBe(true);

      expect(latest(receiver, 'backup.runs', { ...LABELS, outcome: 'success' })).toBe(1);
      expect(latest(receiver, 'backup.runs', { ...LABELS, outcome: 'failure', 'error.type': 'interrupted' })).toBe(1);
      expect(latest(receiver, 'backup.runs', { ...LABELS, outcome: 'failure', 'error.type': 'source' })).toBe(1);
      expect(latest(receiver, 'backup.runs', { ...LABELS, outcome: 'failure', 'error.type': '_OTHER' })).toBe(0);
      expect(latest(receiver, 'backup.last_success.bytes', LABELS)).toBe(4096);
      const succeeded = latest(receiver, 'backup.last_success.timestamp', LABELS) ?? Number.NaN;
      expect(latest(receiver, 'backup.last_failure.timestamp', LABELS)).toBeGreaterThanOrEqual(succeeded);
      expect(histogramPoint(receiver, 'backup.run.duration', 'failure')?.count).toBe(2);
      expect(histogramPoint(receiver, 'backup.run.duration', 'success')).toEqual({
        count: 1,
        bounds: [...RUN_DURATION_BOUNDARIES],
      });
      expect(verifyAndPruneOfRunJob(receiver)).toEqual(RUN_JOB_VERIFY_AND_PRUNE);
    });
  }
});
