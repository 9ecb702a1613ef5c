// startBackupStats when @opentelemetry/resources cannot be loaded (and sdk-metrics can), in process: it rejects with
// BACKUPSTATS_MISSING_PEER naming the call and the npm install line of the SDK line the running Node.js supports,
// with what the import threw as the cause; the CommonJS build's require() error counts as the ESM one does. A file
// of its own: the tests of test/validation/setup-missing-peer.test.ts load the resources package for real, after
// which vitest would not let a mock of it be seen (test/support/missing-package.ts).
//
// The workspace has the package installed, so import() of it is made to reject, within this file only (vi.doMock,
// undone when the test ends), with what Node.js itself throws for it: its own name required from a directory where
// it is not installed. The Node.js version is pinned (reportNodeVersion), so that the text is the same on 20 and 22.
import { startBackupStats } from 'backupstats/setup';
import { expect, it } from 'vitest';
import { expectDocumentedCode } from '../support/error-codes.js';
import { importerOutsideWorkspace, rejectImportOf, reportNodeVersion } from '../support/missing-package.js';

it('@opentelemetry/resources, as require() throws it: named, with the SDK line of the running Node.js', async () => {
  reportNodeVersion('22.15.0');
  const missing = importerOutsideWorkspace().requireError('@opentelemetry/resources');
  expect(missing).toMatchObject({ code: 'MODULE_NOT_FOUND' });
  rejectImportOf('@opentelemetry/resources', missing);
  const error = await startBackupStats({ env: { OTEL_METRICS_EXPORTER: 'console' } }).then(
    async (stats) => {
      await stats.shutdown();
      throw new Error('startBackupStats started without @opentelemetry/resources');
    },
    (rejection: unknown) => rejection,
  );
  expectDocumentedCode(error, 'BACKUPSTATS_MISSING_PEER');
  expect((error as Error).message).toBe(
    'backupstats: startBackupStats needs the package @opentelemetry/resources, which is not installed; install it with: npm install @opentelemetry/resources@^3 (SDK 3.x, the current OpenTelemetry JS line, for Node.js 22.15 or later)',
  );
  expect((error as Error).cause).toBe(missing);
});
