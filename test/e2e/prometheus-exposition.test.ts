// The text of the Prometheus endpoint, checked by Prometheus' own parser and linter (`promtool check metrics`):
// series with their latency histograms, runs, and label text that needs escaping.
import { tmpdir } from 'node:os';
import { Component, Implementation, Operation } from 'backupstats';
import { describe, expect } from 'vitest';
import { it } from '../support/fixtures.js';
import { freePort } from '../support/free-port.js';
import { requireE2E } from '../support/prometheus.js';
import { promtool, promtoolBinary } from '../support/promtool.js';

describe.skipIf(!promtoolBinary && !requireE2E)('the Prometheus exposition passes promtool check metrics', () => {
  it('series with histograms, runs and escaped label text: no parse error and no lint problem', async ({
    startFromEnv,
  }) => {
    const port = await freePort();
    const stats = await startFromEnv({
      OTEL_METRICS_EXPORTER: 'prometheus',
      OTEL_EXPORTER_PROMETHEUS_HOST: '127.0.0.1',
      OTEL_EXPORTER_PROMETHEUS_PORT: String(port),
      OTEL_SERVICE_NAME: 'nightly "full"',
    });
    const run = stats.backup.startRun();
    const odd = stats.backup.scope({
      component: Component.BackupStorage,
      implementation: 'naïve "quoted" \\ back\nslash',
      operation: Operation.DestinationWrite,
    });
    for (let k = 0; k < 100; k++) odd.timedIncrementBytes(4096, 0.01 * 10 ** (k / 20));
    for (let i = 0; i < 20; i++) {
      stats.restore
        .scope({ component: Component.BackupEngine, implementation: Implementation.Builtin, operation: `op-${i}` })
        .timedIncrement(i);
    }
    run.succeed();
    const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    expect(text).toContain('backup_operation_duration_bucket{');
    expect(text).toContain('implementation="naïve \\"quoted\\" \\\\ back\\nslash"');
    const checked = await promtool(['check', 'metrics'], tmpdir(), text);
    expect({ code: checked.code, stdout: checked.stdout, stderr: checked.stderr }).toEqual({
      code: 0,
      stdout: '',
      stderr: '',
    });
  });

  it('promtool rejects a broken exposition (the check can fail)', async () => {
    const checked = await promtool(['check', 'metrics'], tmpdir(), 'backup_bytes_total{a="b} 1\n');
    expect(checked.code).not.toBe(0);
  });
});
