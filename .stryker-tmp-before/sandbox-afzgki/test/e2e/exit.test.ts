// @ts-nocheck
// The end of a backup job is where metrics usually get lost. A child process records in a long loop that
// yields to the event loop between batches, and ends by returning, by SIGTERM or by SIGINT; with an export
// interval far beyond the test, only the final export at shutdown can deliver the totals.
import { fileURLToPath } from 'node:url';
import { describe, expect } from 'vitest';
import type { ScopeTotal } from '../fixtures/workload.mjs';
import { expectedSeries, mismatches } from '../support/e2e-expected.js';
import { it } from '../support/fixtures.js';

const fixture = fileURLToPath(new URL('../fixtures/record-job.mjs', import.meta.url));

/** Exit codes a shell reports for a process killed by the signal (128 + its number). */
const SHELL_CODE = { SIGTERM: 143, SIGINT: 130 } as const;

describe('end of job: nothing recorded is lost', () => {
  const endings = [
    { ending: 'returns normally', signal: undefined },
    { ending: 'gets SIGTERM mid-loop', signal: 'SIGTERM' },
    { ending: 'gets SIGINT mid-loop', signal: 'SIGINT' },
  ] as const;
  for (const { ending, signal } of endings) {
    it(`the job ${ending}: the final totals reach the receiver and the exit is conventional`, async ({
      startReceiver,
      startFixture,
    }) => {
      const receiver = await startReceiver('http');
      const child = startFixture(fixture, {
        OTEL_METRICS_EXPORTER: 'otlp',
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
        // One export at most before shutdown: the interval is longer than any test run.
        OTEL_METRIC_EXPORT_INTERVAL: '600000',
        BACKUPSTATS_NAMING: 'vitess',
        // A normal end records a long but finite loop; a signalled one an endless one (it cannot finish first).
        FIXTURE_BATCHES: signal === undefined ? '3000' : '1000000000',
      });

      if (signal !== undefined) {
        await child.waitForEvent('recording');
        child.child.kill(signal);
      }
      const recorded = await child.waitForEvent('totals');
      const end = await child.exited();
      expect(recorded.finished).toBe(signal === undefined);
      expect(recorded.records).toBeGreaterThan(0);

      if (signal === undefined) expect(end, child.stderr()).toEqual({ code: 0, signal: null });
      else
        expect(
          end.signal === signal || end.code === SHELL_CODE[signal],
          `exit ${JSON.stringify(end)}\n${child.stderr()}`,
        ).toBe(true);

      const expected = expectedSeries(recorded.totals as ScopeTotal[], 'vitess');
      expect(mismatches(expected, receiver.totals())).toEqual([]);
    });
  }
});
