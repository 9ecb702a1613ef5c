// createPushgatewayExporter and createTextfileExporter when @opentelemetry/exporter-prometheus resolves but its
// import fails, in process (a peer that is not installed at all is refused when the exporter is made, which
// test/package/optional-peers.test.ts checks with a real install that lacks it): every export fails with
// BACKUPSTATS_MISSING_PEER, naming the factory and the npm install line of the SDK
// line of the exported resource (of the running Node.js without one), reported once per exporter; a failure that is not
// the peer missing is handed back as it is.
//
// The workspace has the peer installed, so each test makes import() of it reject, within this file only
// (vi.doMock, undone when the test ends), with what Node.js itself throws for it: the peer's own name loaded from
// a directory where it is not installed (test/support/missing-package.ts). The Node.js version is pinned
// where the line depends on it (reportNodeVersion), so that the tests expect the same text on Node.js 20 and 22.
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AggregationTemporality,
  InstrumentType,
  type PushMetricExporter,
  type ResourceMetrics,
} from '@opentelemetry/sdk-metrics';
import { createPushgatewayExporter } from 'backupstats/pushgateway';
import { createTextfileExporter } from 'backupstats/textfile';
import { describe, expect } from 'vitest';
import type { DiagCapture } from '../support/diag-capture.js';
import { expectDocumentedCode } from '../support/error-codes.js';
import { it } from '../support/fixtures.js';
import {
  importerOutsideWorkspace,
  installWithoutMain,
  rejectImportOf,
  reportNodeVersion,
} from '../support/missing-package.js';

const PEER = '@opentelemetry/exporter-prometheus';
/** `ExportResultCode.FAILED` of @opentelemetry/core. */
const FAILED = 1;

/** Until the test ends, import() of the peer rejects with `error`, exactly that value. */
const peerRejectsWith = (error: unknown): Promise<void> => rejectImportOf(PEER, error);

/** The two factories, each with a path to write to (the textfile's directory must exist). */
const factories: ReadonlyArray<readonly [string, (dir: string) => PushMetricExporter]> = [
  ['createPushgatewayExporter', () => createPushgatewayExporter({ url: 'http://127.0.0.1:9' })],
  ['createTextfileExporter', (dir) => createTextfileExporter({ path: `${dir}/backup.prom` })],
];

const metricsOf = (attributes: Record<string, unknown>): ResourceMetrics => ({
  resource: resourceFromAttributes(attributes as never),
  scopeMetrics: [],
});

const exportOnce = (exporter: PushMetricExporter, metrics: ResourceMetrics) =>
  new Promise<Parameters<Parameters<PushMetricExporter['export']>[1]>[0]>((done) => exporter.export(metrics, done));

/** The sentence of the error, as reported and as in each export's result. */
const sentence = (fn: string, line: 2 | 3) =>
  `backupstats: ${fn} needs the package ${PEER}, which is not installed; install it with: npm install "${PEER}@>=0.${line}00 <0.${line + 1}00" (the 0.${line}xx exporters go with the installed SDK ${line}.x)`;

const saidBy = (diagnostics: DiagCapture, fn: string) =>
  diagnostics.messages.filter((message) => message.includes(`${fn} needs the package`));

describe.each(factories)('%s without exporter-prometheus', (fn, make) => {
  it.for([
    // The SDK's line wins over the running Node.js's: npm's newest exporter may be of the other line.
    ['2.12.0', '22.15.0', 2],
    ['3.1.0', '20.19.0', 3],
  ] as const)(
    'SDK %s (on Node.js %s): every export fails with BACKUPSTATS_MISSING_PEER and the install line of the 0.%sxx exporters, reported once',
    async ([sdkVersion, node, line], { diagnostics }) => {
      reportNodeVersion(node);
      const importer = importerOutsideWorkspace();
      const missing = await importer.importError(PEER);
      expect(missing).toMatchObject({ code: 'ERR_MODULE_NOT_FOUND' });
      await peerRejectsWith(missing);
      const exporter = make(importer.dir);
      const metrics = metricsOf({ 'service.name': 'nightly', 'telemetry.sdk.version': sdkVersion });

      // The first export is asked before the load has failed, the second after.
      const first = await exportOnce(exporter, metrics);
      expect(first.code).toBe(FAILED);
      expectDocumentedCode(first.error, 'BACKUPSTATS_MISSING_PEER');
      expect(first.error?.message).toBe(sentence(fn, line));
      expect(first.error?.cause).toBe(missing);
      expect(saidBy(diagnostics, fn)).toEqual([sentence(fn, line)]);

      const second = await exportOnce(exporter, metrics);
      expect(second.code).toBe(FAILED);
      expectDocumentedCode(second.error, 'BACKUPSTATS_MISSING_PEER');
      expect(second.error?.message).toBe(sentence(fn, line));
      expect(saidBy(diagnostics, fn)).toHaveLength(1);

      // Nothing to flush or shut down; neither rejects.
      await expect(exporter.forceFlush()).resolves.toBeUndefined();
      await expect(exporter.shutdown()).resolves.toBeUndefined();
      expect(exporter.selectAggregationTemporality?.(InstrumentType.COUNTER)).toBe(AggregationTemporality.CUMULATIVE);
    },
  );

  it.for([
    ['no telemetry.sdk.version', '20.19.0', 2, {}],
    ['a telemetry.sdk.version that is not a string (3)', '22.14.0', 2, { 'telemetry.sdk.version': 3 }],
    ['a telemetry.sdk.version that is not a string (2)', '22.15.0', 3, { 'telemetry.sdk.version': 2 }],
    ['the version of another line (1.30.0)', '23.0.0', 3, { 'telemetry.sdk.version': '1.30.0' }],
  ] as const)(
    'a resource with %s, on Node.js %s: the install line of the line that Node.js supports (0.%sxx)',
    async ([, node, line, attributes], { diagnostics }) => {
      reportNodeVersion(node);
      const importer = importerOutsideWorkspace();
      await peerRejectsWith(await importer.importError(PEER));
      const result = await exportOnce(make(importer.dir), metricsOf({ 'service.name': 'nightly', ...attributes }));
      expectDocumentedCode(result.error, 'BACKUPSTATS_MISSING_PEER');
      expect(result.error?.message).toBe(sentence(fn, line));
      expect(saidBy(diagnostics, fn)).toEqual([sentence(fn, line)]);
    },
  );

  it("what require() throws for it (the CommonJS build's import): the peer missing too", async ({ diagnostics }) => {
    const importer = importerOutsideWorkspace();
    const missing = importer.requireError(PEER);
    expect(missing).toMatchObject({ code: 'MODULE_NOT_FOUND' });
    await peerRejectsWith(missing);
    const result = await exportOnce(make(importer.dir), metricsOf({ 'telemetry.sdk.version': '2.12.0' }));
    expect(result.code).toBe(FAILED);
    expectDocumentedCode(result.error, 'BACKUPSTATS_MISSING_PEER');
    expect(result.error?.message).toBe(sentence(fn, 2));
    expect(result.error?.cause).toBe(missing);
    expect(saidBy(diagnostics, fn)).toEqual([sentence(fn, 2)]);
  });

  it.for([
    ['an install that Node.js cannot load (ERR_PACKAGE_PATH_NOT_EXPORTED, naming the package)', 'broken'],
    ['another package not found (ERR_MODULE_NOT_FOUND, not naming the peer)', 'other'],
  ] as const)('%s: handed back as it is in every export, and nothing said', async ([, kind], { diagnostics }) => {
    const importer = importerOutsideWorkspace();
    if (kind === 'broken') installWithoutMain(importer, PEER);
    const failure = await importer.importError(kind === 'broken' ? PEER : 'backupstats-no-such-package');
    expect(failure).toMatchObject({
      code: kind === 'broken' ? 'ERR_PACKAGE_PATH_NOT_EXPORTED' : 'ERR_MODULE_NOT_FOUND',
    });
    if (kind === 'broken') expect((failure as Error).message).toContain(PEER);
    await peerRejectsWith(failure);
    const exporter = make(importer.dir);
    const metrics = metricsOf({ 'telemetry.sdk.version': '2.12.0' });
    for (let i = 0; i < 2; i++) {
      const result = await exportOnce(exporter, metrics);
      expect(result.code).toBe(FAILED);
      expect(result.error).toBe(failure);
    }
    expect(saidBy(diagnostics, fn)).toEqual([]);
    expect(diagnostics.messages).toEqual([]);
  });

  it.for([
    ['a string', 'exporter-prometheus failed', 'exporter-prometheus failed'],
    ['null', null, 'null'],
  ])(
    'a load that fails with %s, not an Error: an Error of its text in every export',
    async ([, thrown, text], { diagnostics }) => {
      const importer = importerOutsideWorkspace();
      await peerRejectsWith(thrown);
      const exporter = make(importer.dir);
      const result = await exportOnce(exporter, metricsOf({ 'telemetry.sdk.version': '2.12.0' }));
      expect(result.code).toBe(FAILED);
      expect(result.error).toBeInstanceOf(Error);
      expect(result.error?.message).toBe(text);
      expect((result.error as { code?: unknown }).code).toBeUndefined();
      expect(diagnostics.messages).toEqual([]);
    },
  );
});
