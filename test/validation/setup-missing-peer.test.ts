// startBackupStats when an optional peer it needs cannot be loaded, in process: it rejects with
// BACKUPSTATS_MISSING_PEER, naming what asked for the package (the call, or the variable that selects the
// exporter) and the npm install line: without an SDK, of the line the running Node.js supports (SDK 3.x from Node.js
// 22.15); with one, the exporters of the installed SDK's line (2.x here) whatever the Node.js; a package outside
// OpenTelemetry's lines by its bare name. What the import threw is the error's cause; a failure that is not the
// package missing is not reworded. test/package/optional-peers.test.ts checks the same in child processes with a
// real install that lacks the peers.
//
// The workspace has every peer installed, so each test makes import() of one reject, within this file only
// (vi.doMock, undone when the test ends), with what Node.js itself throws for it: the peer's own name loaded from a
// directory where it is not installed (test/support/missing-package.ts). The Node.js version is pinned
// where the line depends on it (reportNodeVersion), so that the tests expect the same text on Node.js 20 and 22.
import { startBackupStats } from 'backupstats/setup';
import { describe, expect, it } from 'vitest';
import { expectDocumentedCode } from '../support/error-codes.js';
import {
  importerOutsideWorkspace,
  installWithMissingDependency,
  installWithoutMain,
  rejectImportOf,
  reportNodeVersion,
} from '../support/missing-package.js';

/** What startBackupStats({ env }) rejects with (stats it accepts are shut down and fail the test). */
async function rejectionOf(env: Record<string, string>): Promise<unknown> {
  try {
    const stats = await startBackupStats({ env });
    await stats.shutdown();
  } catch (error) {
    return error;
  }
  throw new Error(`startBackupStats accepted ${JSON.stringify(env)}`);
}

const notInstalled = (askedBy: string, name: string, hint: string) =>
  `backupstats: ${askedBy} needs the package ${name}, which is not installed; install it with: npm install ${hint}`;

describe('startBackupStats without the SDK', () => {
  it.for([
    ['20.19.0', '@^2 (SDK 2.x, the OpenTelemetry JS line for Node.js v20.19.0; 3.x needs 22.15 or later)'],
    ['22.14.0', '@^2 (SDK 2.x, the OpenTelemetry JS line for Node.js v22.14.0; 3.x needs 22.15 or later)'],
    ['22.15.0', '@^3 (SDK 3.x, the current OpenTelemetry JS line, for Node.js 22.15 or later)'],
    ['23.0.0', '@^3 (SDK 3.x, the current OpenTelemetry JS line, for Node.js 22.15 or later)'],
  ] as const)('@opentelemetry/sdk-metrics on Node.js %s: the SDK line that Node.js supports', async ([node, hint]) => {
    reportNodeVersion(node);
    const missing = await importerOutsideWorkspace().importError('@opentelemetry/sdk-metrics');
    expect(missing).toMatchObject({ code: 'ERR_MODULE_NOT_FOUND' });
    await rejectImportOf('@opentelemetry/sdk-metrics', missing);
    const error = await rejectionOf({ OTEL_METRICS_EXPORTER: 'console' });
    expectDocumentedCode(error, 'BACKUPSTATS_MISSING_PEER');
    expect((error as Error).message).toBe(
      notInstalled('startBackupStats', '@opentelemetry/sdk-metrics', `@opentelemetry/sdk-metrics${hint}`),
    );
    expect((error as Error).cause).toBe(missing);
  });

  it('@opentelemetry/resources, as require() throws it: named the same way', async () => {
    reportNodeVersion('22.15.0');
    const missing = importerOutsideWorkspace().requireError('@opentelemetry/resources');
    expect(missing).toMatchObject({ code: 'MODULE_NOT_FOUND' });
    await rejectImportOf('@opentelemetry/resources', missing);
    const error = await rejectionOf({ OTEL_METRICS_EXPORTER: 'console' });
    expectDocumentedCode(error, 'BACKUPSTATS_MISSING_PEER');
    expect((error as Error).message).toBe(
      notInstalled(
        'startBackupStats',
        '@opentelemetry/resources',
        '@opentelemetry/resources@^3 (SDK 3.x, the current OpenTelemetry JS line, for Node.js 22.15 or later)',
      ),
    );
    expect((error as Error).cause).toBe(missing);
  });

  it('an install of the SDK that Node.js cannot load: its own error, not reworded', async () => {
    const importer = importerOutsideWorkspace();
    installWithoutMain(importer, '@opentelemetry/sdk-metrics');
    const broken = await importer.importError('@opentelemetry/sdk-metrics');
    expect(broken).toMatchObject({ code: 'ERR_PACKAGE_PATH_NOT_EXPORTED' });
    await rejectImportOf('@opentelemetry/sdk-metrics', broken);
    expect(await rejectionOf({ OTEL_METRICS_EXPORTER: 'console' })).toBe(broken);
  });
});

describe('startBackupStats with the SDK (2.x) but without an exporter the environment asks for', () => {
  // On a Node.js whose own line is 3.x: the installed SDK's line wins.
  it.for([
    [
      'prometheus',
      { OTEL_METRICS_EXPORTER: 'prometheus' },
      '@opentelemetry/exporter-prometheus',
      'OTEL_METRICS_EXPORTER="prometheus"',
      '"@opentelemetry/exporter-prometheus@>=0.200 <0.300" (the 0.2xx exporters go with the installed SDK 2.x)',
    ],
    [
      'OTLP by default',
      {},
      '@opentelemetry/exporter-metrics-otlp-proto',
      'OTEL_METRICS_EXPORTER (unset, so "otlp") with OTEL_EXPORTER_OTLP_PROTOCOL (unset, so "http/protobuf")',
      '"@opentelemetry/exporter-metrics-otlp-proto@>=0.200 <0.300" (the 0.2xx exporters go with the installed SDK 2.x)',
    ],
    [
      'gRPC headers, without @grpc/grpc-js (not of an OpenTelemetry line: its bare name)',
      { OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc', OTEL_EXPORTER_OTLP_HEADERS: 'tenant=nightly' },
      '@grpc/grpc-js',
      'OTEL_METRICS_EXPORTER (unset, so "otlp") with OTEL_EXPORTER_OTLP_PROTOCOL="grpc" and OTLP headers',
      '@grpc/grpc-js',
    ],
  ] as const)('%s: the variable that asks for it, and the install line', async ([, env, name, askedBy, hint]) => {
    reportNodeVersion('22.15.0');
    const missing = await importerOutsideWorkspace().importError(name);
    expect(missing).toMatchObject({ code: 'ERR_MODULE_NOT_FOUND' });
    await rejectImportOf(name, missing);
    const error = await rejectionOf(env);
    expectDocumentedCode(error, 'BACKUPSTATS_MISSING_PEER');
    expect((error as Error).message).toBe(notInstalled(askedBy, name, hint));
    expect((error as Error).cause).toBe(missing);
  });
});

describe('startBackupStats with an exporter installed whose own dependency is missing', () => {
  // Node's message names the exporter too, in the path of the file that asked for the dependency: the exporter is
  // installed, so telling the user to install it would send them the wrong way. The dependency's name is one that no
  // registry has: a real one, such as @opentelemetry/core, would be found by require() through the NODE_PATH that
  // pnpm's bin shims (node_modules/.bin/vitest) set to the workspace's hoisted packages.
  it.for(['import', 'require'] as const)('as %s() throws it: the error as it is, not "not installed"', async (how) => {
    const importer = importerOutsideWorkspace();
    installWithMissingDependency(importer, '@opentelemetry/exporter-prometheus', '@opentelemetry/no-such-package');
    const missing =
      how === 'import'
        ? await importer.importError('@opentelemetry/exporter-prometheus')
        : importer.requireError('@opentelemetry/exporter-prometheus');
    expect(missing).toMatchObject({ code: how === 'import' ? 'ERR_MODULE_NOT_FOUND' : 'MODULE_NOT_FOUND' });
    expect((missing as Error).message).toContain("'@opentelemetry/no-such-package'");
    expect((missing as Error).message).toContain('node_modules/@opentelemetry/exporter-prometheus/index.');
    await rejectImportOf('@opentelemetry/exporter-prometheus', missing);
    expect(await rejectionOf({ OTEL_METRICS_EXPORTER: 'prometheus' })).toBe(missing);
  });
});
