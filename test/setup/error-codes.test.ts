// Every error the library throws, or hands to the SDK in an export result, carries a code of the table in
// docs/errors.md (the validation tests check the code of each of their cases through test/support/error-codes.ts);
// here each documented code is met once, through the public API, and the table holds no code that nothing makes.

import * as diagnosticsChannel from 'node:diagnostics_channel';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { createBackupStats, meterReadable, meterTransform } from 'backupstats';
import { meterHttpRequests } from 'backupstats/http';
import { createPushgatewayExporter } from 'backupstats/pushgateway';
import { startBackupStats } from 'backupstats/setup';
import { createRecordingStats } from 'backupstats/testing';
import { createTextfileExporter } from 'backupstats/textfile';
import { connectBackupStats } from 'backupstats/worker';
import { describe, expect, onTestFinished } from 'vitest';
import { DOCUMENTED_CODES, expectDocumentedCode, thrownBy } from '../support/error-codes.js';
import { it } from '../support/fixtures.js';

/** `ExportResultCode.FAILED` of @opentelemetry/core. */
const FAILED = 1;

const met = new Set<string>();

/** Asserts `error` carries `code` and notes the code as met. */
function expectCode(error: unknown, code: string): void {
  expectDocumentedCode(error, code);
  met.add(code);
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

/** A port on 127.0.0.1 that something else holds. */
async function takenPort(): Promise<number> {
  const taken: Server = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => new Promise<void>((resolve) => taken.close(() => resolve())));
  const address = taken.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('the stable codes of docs/errors.md', () => {
  it('an option, an argument, a variable', async () => {
    expectCode(
      thrownBy(() => createBackupStats({ naming: 'statsd' as never })),
      'BACKUPSTATS_INVALID_OPTION',
    );
    expectCode(
      thrownBy(() => meterReadable(new PassThrough(), {} as never)),
      'BACKUPSTATS_INVALID_ARGUMENT',
    );
    expectCode(
      await rejection(startBackupStats({ env: { BACKUPSTATS_DISABLED: 'maybe' } })),
      'BACKUPSTATS_INVALID_ENV',
    );
  });

  it('a stream a meter cannot meter, or metered already', () => {
    expectCode(
      thrownBy(() => meterReadable({} as never, createRecordingStats())),
      'BACKUPSTATS_WRONG_STREAM',
    );
    const stream = meterTransform(new PassThrough(), createRecordingStats());
    expectCode(
      thrownBy(() => meterTransform(stream, createRecordingStats())),
      'BACKUPSTATS_WRONG_STREAM',
    );
  });

  it('a link whose places are all taken', async () => {
    const stats = createBackupStats();
    onTestFinished(() => stats.shutdown());
    const link = stats.workerLink({ workers: 1 });
    const first = connectBackupStats(link);
    onTestFinished(() => first.close());
    expectCode(
      thrownBy(() => connectBackupStats(link)),
      'BACKUPSTATS_LINK_FULL',
    );
  });

  it('a Prometheus endpoint that cannot listen', async () => {
    const port = await takenPort();
    const error = await rejection(
      startBackupStats({
        env: {
          OTEL_METRICS_EXPORTER: 'prometheus',
          OTEL_EXPORTER_PROMETHEUS_HOST: '127.0.0.1',
          OTEL_EXPORTER_PROMETHEUS_PORT: String(port),
        },
      }),
    );
    expectCode(error, 'BACKUPSTATS_LISTEN_FAILED');
  });

  it("the Pushgateway exporter's results: a failed push, and an export after shutdown", async ({ harness }) => {
    const stats = createBackupStats({ meterProvider: harness.provider });
    onTestFinished(() => stats.shutdown());
    stats.backup.timedIncrementBytes(10, 1);
    const metrics = await harness.collect();
    // Nothing listens on a port just let go: the push is refused by the system.
    const port = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const address = server.address();
        server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
      });
    });
    const exporter = createPushgatewayExporter({ url: `http://127.0.0.1:${port}`, job: 'codes', timeoutMillis: 2000 });
    const failed = await new Promise<{ code: number; error?: Error }>((resolve) => exporter.export(metrics, resolve));
    expect(failed.code).toBe(FAILED);
    expectCode(failed.error, 'BACKUPSTATS_PUSH_FAILED');
    await exporter.shutdown();
    const late = await new Promise<{ code: number; error?: Error }>((resolve) => exporter.export(metrics, resolve));
    expect(late.code).toBe(FAILED);
    expectCode(late.error, 'BACKUPSTATS_SHUT_DOWN');
  });

  it("the textfile exporter's results and set-up: a write that fails, an export after shutdown, a second job of the same service name", async ({
    harness,
  }) => {
    const stats = createBackupStats({ meterProvider: harness.provider });
    onTestFinished(() => stats.shutdown());
    stats.backup.timedIncrementBytes(10, 1);
    const metrics = await harness.collect();
    const dir = mkdtempSync(join(tmpdir(), 'backupstats-codes-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const path = join(dir, 'codes.prom');
    const exporter = createTextfileExporter({ path });
    // A directory in the file's place: the rename over it fails.
    mkdirSync(path);
    const failed = await new Promise<{ code: number; error?: Error }>((resolve) => exporter.export(metrics, resolve));
    expect(failed.code).toBe(FAILED);
    expectCode(failed.error, 'BACKUPSTATS_WRITE_FAILED');
    await exporter.shutdown();
    const late = await new Promise<{ code: number; error?: Error }>((resolve) => exporter.export(metrics, resolve));
    expectCode(late.error, 'BACKUPSTATS_SHUT_DOWN');

    writeFileSync(join(dir, 'other.prom'), 'target_info{service_name="codes"} 1\n');
    const env = { OTEL_METRICS_EXPORTER: 'textfile', BACKUPSTATS_TEXTFILE_PATH: join(dir, 'second.prom') };
    expectCode(
      await rejection(startBackupStats({ env: { ...env, OTEL_SERVICE_NAME: 'codes' } })),
      'BACKUPSTATS_TEXTFILE_TAKEN',
    );
  });

  it('a runtime without diagnostics_channel.subscribe, which meterHttpRequests needs', () => {
    // Node's own module, without subscribe for the length of the call (as a runtime that lacks it would be).
    const builtin = createRequire(import.meta.url)('node:diagnostics_channel') as { subscribe?: unknown };
    const subscribe = builtin.subscribe;
    builtin.subscribe = undefined;
    syncBuiltinESMExports();
    try {
      expect(diagnosticsChannel.subscribe).toBeUndefined();
      const error = thrownBy(() => meterHttpRequests(createRecordingStats(), { origin: 'http://127.0.0.1:9' }));
      expectCode(error, 'BACKUPSTATS_UNSUPPORTED_RUNTIME');
      expect((error as Error).message).toMatch(/meterHttpRequests.*diagnostics_channel\.subscribe.*Node\.js 20\.6/);
    } finally {
      builtin.subscribe = subscribe;
      syncBuiltinESMExports();
    }
    expect(diagnosticsChannel.subscribe).toBe(subscribe);
  });

  it('a missing optional peer: test/package/optional-peers.test.ts, where the peers are left out of a real install', () => {
    expect(DOCUMENTED_CODES).toContain('BACKUPSTATS_MISSING_PEER');
    met.add('BACKUPSTATS_MISSING_PEER');
  });

  it('the table holds each code once, and no code that nothing makes', () => {
    expect(new Set(DOCUMENTED_CODES).size).toBe(DOCUMENTED_CODES.length);
    expect([...met].sort()).toEqual([...DOCUMENTED_CODES].sort());
  });
});
