// An application with its own SIGTERM listener and shutdownOnExit must not live on until the export deadline
// (OTEL_METRIC_EXPORT_TIMEOUT + 1 s, 31 s by default: under Kubernetes, the whole grace period, then SIGKILL) after
// its final export reached the receiver. Once the final export is delivered, the other
// listeners get about a second to end the process themselves; then it ends by the signal. A listener that exits
// still decides the exit code.
import { fileURLToPath } from 'node:url';
import { describe } from 'vitest';
import { it } from '../support/fixtures.js';
import { seriesKey } from '../support/series-key.js';

const fixture = fileURLToPath(new URL('../fixtures/own-listener-job.mjs', import.meta.url));
/**
 * A hang detector well below the default deadline (30 s + 1 s) the process waited for before: not a timing
 * measurement, the process must simply end without it.
 */
const HANG_MS = 20_000;
const READ = { component: 'BackupEngine', implementation: 'Builtin', operation: 'Source:Read' };

describe.concurrent('SIGTERM with a listener of the application and the default export deadline', () => {
  const cases = [
    ['a listener that only logs: the process ends by SIGTERM after the final export', 'logs', [null, 'SIGTERM']],
    ['a listener that exits: its exit code', 'exits', [5, null]],
  ] as const;
  for (const [name, listener, [code, signal]] of cases) {
    it(name, async ({ expect, startReceiver, startFixture }) => {
      const receiver = await startReceiver('http');
      const child = startFixture(fixture, {
        OTEL_METRICS_EXPORTER: 'otlp',
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_METRIC_EXPORT_INTERVAL: '600000',
        FIXTURE_LISTENER: listener,
        FIXTURE_EXIT_CODE: '5',
      });
      await child.waitForEvent('ready');
      child.child.kill('SIGTERM');
      const end = await child.exited(HANG_MS);
      const shell = signal === null ? undefined : 143;
      expect(
        end.signal === signal || (shell !== undefined && end.code === shell) || end.code === code,
        `${JSON.stringify(end)}\n${child.stderr()}`,
      ).toBe(true);
      const seen = await child.waitForEvent('own-listener');
      if (listener === 'logs') {
        // Every record made before the signal is in the final export (the interval kept recording until the end).
        expect(receiver.totals().get(seriesKey('backup.bytes', READ))).toBeGreaterThanOrEqual(
          (seen.records ?? 1) * 4096,
        );
      }
      expect(receiver.totals().get(seriesKey('backup.operations', READ))).toBeGreaterThan(0);
    });
  }
});
