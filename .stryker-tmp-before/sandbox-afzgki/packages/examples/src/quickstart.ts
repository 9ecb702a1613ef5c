// @ts-nocheck
// The smallest useful program: record a few backup scopes, let OpenTelemetry collect them, print the export.
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import { Component, createBackupStats, Implementation, Operation } from 'backupstats';

const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 60_000 });
const provider = new MeterProvider({ readers: [reader] });
const stats = createBackupStats({ meterProvider: provider });

// Hold the handles: recording on them only adds to a few numbers.
const engine = stats.backup.scope({ component: Component.BackupEngine, implementation: Implementation.Builtin });
const read = engine.scope({ operation: Operation.SourceRead });
const write = stats.backup.scope({
  component: Component.BackupStorage,
  implementation: Implementation.File,
  operation: Operation.DestinationWrite,
});

const started = performance.now();
let last = started;
for (let chunk = 0; chunk < 1000; chunk++) {
  const now = performance.now();
  read.timedIncrementBytes(64 * 1024, now - last);
  write.timedIncrementBytes(64 * 1024, 0.01);
  last = now;
}
stats.backup.scope({ operation: Operation.Backup }).timedIncrement(performance.now() - started);

await reader.forceFlush();
const rows: string[][] = [];
for (const scope of exporter.getMetrics().at(-1)?.scopeMetrics ?? []) {
  for (const metric of scope.metrics) {
    for (const point of metric.dataPoints) {
      const a = point.attributes;
      const labels = 'component' in a ? `${a.component} / ${a.implementation} / ${a.operation}` : JSON.stringify(a);
      rows.push([metric.descriptor.name, labels, String(point.value), metric.descriptor.unit]);
    }
  }
}
console.log('What the OpenTelemetry pipeline exported:');
console.table(rows.map(([metric, labels, value, unit]) => ({ metric, labels, value, unit })));
await stats.shutdown();
await provider.shutdown();
