// The tests' fixtures (vitest's test.extend): each one is set up only for the tests that name it, and what it
// set up or started is torn down when the test ends (onTestFinished), whether it passed or failed. Tests import `test` (or `it`) from here instead of vitest.
// Each fixture imports what it starts when a test first asks for it: most files ask for one or two, and every file
// of the child-process tiers loads this module afresh, so eager imports of the library, the SDK and the OTLP protos
// cost each of them about half a second of CPU for nothing.
import type { StartedBackupStats } from 'backupstats/setup';
import { test as base } from 'vitest';
import type { startFixture } from './child.js';
import type { DiagCapture } from './diag-capture.js';
import type { Harness } from './harness.js';
import type { startNodeExporter } from './node-exporter.js';
import type { startOtlpReceiver } from './otlp-receiver.js';
import type { startPrometheus } from './prometheus.js';
import type { startPushgateway } from './pushgateway/server.js';

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
    const { createHarness } = await import('./harness.js');
    const harness = createHarness();
    onTestFinished(() => harness.shutdown());
    await use(harness);
  },
  diagnostics: async ({ onTestFinished }, use) => {
    const { captureDiag } = await import('./diag-capture.js');
    const capture = captureDiag();
    onTestFinished(() => capture.restore());
    await use(capture);
  },
  startReceiver: async ({ onTestFinished }, use) => {
    await use(async (transport) => {
      const { startOtlpReceiver } = await import('./otlp-receiver.js');
      const receiver = await startOtlpReceiver(transport);
      onTestFinished(() => receiver.stop());
      return receiver;
    });
  },
  startPrometheus: async ({ onTestFinished }, use) => {
    await use(async (targets, options) => {
      const { startPrometheus } = await import('./prometheus.js');
      const server = await startPrometheus(targets, options);
      onTestFinished(() => server.stop());
      return server;
    });
  },
  startPushgateway: async ({ onTestFinished }, use) => {
    await use(async (options) => {
      const { startPushgateway } = await import('./pushgateway/server.js');
      const server = await startPushgateway(options);
      onTestFinished(() => server.stop());
      return server;
    });
  },
  startNodeExporter: async ({ onTestFinished }, use) => {
    await use(async () => {
      const { startNodeExporter } = await import('./node-exporter.js');
      const server = await startNodeExporter();
      onTestFinished(() => server.stop());
      return server;
    });
  },
  startFromEnv: async ({ onTestFinished }, use) => {
    await use(async (env) => {
      const { startBackupStats } = await import('backupstats/setup');
      const stats = await startBackupStats({ env });
      onTestFinished(() => stats.shutdown());
      return stats;
    });
  },
  startFixture: async ({ onTestFinished }, use) => {
    const { startFixture } = await import('./child.js');
    await use((script, env, options) => {
      const child = startFixture(script, env, options);
      onTestFinished(() => child.kill());
      return child;
    });
  },
});

/** The same as {@link test}. */
export const it = test;
