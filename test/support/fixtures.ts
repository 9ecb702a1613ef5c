// The tests' fixtures (vitest's test.extend): each one is set up only for the tests that name it, and what it
// set up or started is torn down when the test ends (onTestFinished), whether it passed or failed. Tests import `test` (or `it`) from here instead of vitest.
import { type StartedBackupStats, startBackupStats } from 'backupstats/setup';
import { test as base } from 'vitest';
import { startFixture } from './child.js';
import { captureDiag, type DiagCapture } from './diag-capture.js';
import { createHarness, type Harness } from './harness.js';
import { startNodeExporter } from './node-exporter.js';
import { startOtlpReceiver } from './otlp-receiver.js';
import { startPrometheus } from './prometheus.js';
import { startPushgateway } from './pushgateway/server.js';

/** What a test can ask for. */
export interface Fixtures {
  /** A real MeterProvider with one cumulative in-memory reader (see createHarness). */
  harness: Harness;
  /** The OpenTelemetry `diag` warnings and errors logged during the test. */
  diagnostics: DiagCapture;
  /** Starts an OTLP receiver (see startOtlpReceiver), stopped when the test ends. */
  startReceiver: typeof startOtlpReceiver;
  /** Starts a Prometheus server (see startPrometheus), stopped when the test ends. */
  startPrometheus: typeof startPrometheus;
  /** Starts the real Pushgateway (see startPushgateway), stopped when the test ends. */
  startPushgateway: typeof startPushgateway;
  /** Starts Debian's node_exporter with only its textfile collector (see startNodeExporter), stopped when the test ends. */
  startNodeExporter: typeof startNodeExporter;
  /** Starts a fixture script in a child process (see startFixture), killed when the test ends. */
  startFixture: typeof startFixture;
  /** `startBackupStats({ env })` with these variables only, shut down when the test ends. */
  startFromEnv: (env: Readonly<Record<string, string>>) => Promise<StartedBackupStats>;
}

export const test = base.extend<Fixtures>({
  harness: async ({ onTestFinished }, use) => {
    const harness = createHarness();
    onTestFinished(() => harness.shutdown());
    await use(harness);
  },
  diagnostics: async ({ onTestFinished }, use) => {
    const capture = captureDiag();
    onTestFinished(() => capture.restore());
    await use(capture);
  },
  startReceiver: async ({ onTestFinished }, use) => {
    await use(async (transport) => {
      const receiver = await startOtlpReceiver(transport);
      onTestFinished(() => receiver.stop());
      return receiver;
    });
  },
  startPrometheus: async ({ onTestFinished }, use) => {
    await use(async (targets, options) => {
      const server = await startPrometheus(targets, options);
      onTestFinished(() => server.stop());
      return server;
    });
  },
  startPushgateway: async ({ onTestFinished }, use) => {
    await use(async (options) => {
      const server = await startPushgateway(options);
      onTestFinished(() => server.stop());
      return server;
    });
  },
  startNodeExporter: async ({ onTestFinished }, use) => {
    await use(async () => {
      const server = await startNodeExporter();
      onTestFinished(() => server.stop());
      return server;
    });
  },
  startFromEnv: async ({ onTestFinished }, use) => {
    await use(async (env) => {
      const stats = await startBackupStats({ env });
      onTestFinished(() => stats.shutdown());
      return stats;
    });
  },
  startFixture: async ({ onTestFinished }, use) => {
    await use((script, env, options) => {
      const child = startFixture(script, env, options);
      onTestFinished(() => child.kill());
      return child;
    });
  },
});

/** The same as {@link test}. */
export const it = test;
