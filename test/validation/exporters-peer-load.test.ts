// An exporter made in code (createTextfileExporter here; createPushgatewayExporter shares the same wrapper) is
// returned at once, while @opentelemetry/exporter-prometheus is still loading: the exports, forceFlush and shutdown
// asked meanwhile wait for the load and then go to the exporter in the order they were asked; once it has loaded,
// an export goes straight to it. In process, with the peer installed.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ValueType } from '@opentelemetry/api';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AggregationTemporality,
  DataPointType,
  InstrumentType,
  type PushMetricExporter,
  type ResourceMetrics,
} from '@opentelemetry/sdk-metrics';
import { createTextfileExporter } from 'backupstats/textfile';
import { describe, expect, it, onTestFinished } from 'vitest';
import { expectDocumentedCode } from '../support/error-codes.js';

type ExportResult = Parameters<Parameters<PushMetricExporter['export']>[1]>[0];
/** `ExportResultCode` of @opentelemetry/core. */
const SUCCESS = 0;
const FAILED = 1;

function scratchFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'backupstats-peer-load-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, 'backup.prom');
}

/** One cumulative counter, `copied_bytes`, at `value`. */
const metricsAt = (value: number): ResourceMetrics => ({
  resource: resourceFromAttributes({ 'service.name': 'nightly' }),
  scopeMetrics: [
    {
      scope: { name: 'peer-load-test' },
      metrics: [
        {
          descriptor: { name: 'copied_bytes', description: 'Bytes copied', unit: '', valueType: ValueType.INT },
          aggregationTemporality: AggregationTemporality.CUMULATIVE,
          dataPointType: DataPointType.SUM,
          isMonotonic: true,
          dataPoints: [{ attributes: {}, startTime: [0, 0], endTime: [1, 0], value }],
        },
      ],
    },
  ],
});

/** The value of `copied_bytes` in the file. */
const writtenValue = (path: string): string | undefined =>
  /^copied_bytes_total\{otel_scope_name="peer-load-test",service_name="nightly"\} (\S+)$/m.exec(
    readFileSync(path, 'utf8'),
  )?.[1];

const exportOnce = (exporter: PushMetricExporter, metrics: ResourceMetrics) =>
  new Promise<ExportResult>((done) => exporter.export(metrics, done));

describe('createTextfileExporter while exporter-prometheus loads', () => {
  it('exports asked before the load wait for it and are written in order; one asked after it goes straight through', async () => {
    const path = scratchFile();
    const exporter = createTextfileExporter({ path });
    const order: string[] = [];
    const asked = [1, 2].map(
      (value) =>
        new Promise<ExportResult>((done) =>
          exporter.export(metricsAt(value), (result) => {
            order.push(`export ${value}`);
            done(result);
          }),
        ),
    );
    expect(await Promise.all(asked)).toEqual([{ code: SUCCESS }, { code: SUCCESS }]);
    expect(order).toEqual(['export 1', 'export 2']);
    expect(writtenValue(path)).toBe('2');

    expect(await exportOnce(exporter, metricsAt(3))).toEqual({ code: SUCCESS });
    expect(writtenValue(path)).toBe('3');
    await exporter.shutdown();
    expect(exporter.selectAggregationTemporality?.(InstrumentType.COUNTER)).toBe(AggregationTemporality.CUMULATIVE);
  });

  it('forceFlush asked right after an export, before the load: resolves once that export is written', async () => {
    const path = scratchFile();
    const exporter = createTextfileExporter({ path });
    onTestFinished(() => exporter.shutdown());
    exporter.export(metricsAt(5), () => {});
    await exporter.forceFlush();
    expect(writtenValue(path)).toBe('5');
  });

  it('shutdown asked before the load: the export asked before it is written, and the exporter is shut down', async () => {
    const path = scratchFile();
    const exporter = createTextfileExporter({ path });
    const asked = exportOnce(exporter, metricsAt(7));
    await exporter.shutdown();
    expect(writtenValue(path)).toBe('7');
    expect(await asked).toEqual({ code: SUCCESS });

    // Loaded now: an export goes straight to the textfile exporter, which refuses it before export returns.
    let refused: ExportResult | undefined;
    exporter.export(metricsAt(8), (result) => {
      refused = result;
    });
    expect(refused?.code).toBe(FAILED);
    expectDocumentedCode(refused?.error, 'BACKUPSTATS_SHUT_DOWN');
    expect(refused?.error?.message).toBe('the textfile exporter is shut down');
    expect(writtenValue(path)).toBe('7');
  });
});
