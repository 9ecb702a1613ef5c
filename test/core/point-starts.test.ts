// Where the exported points start, on a fake wall clock (Date only): a synchronous OpenTelemetry series starts at
// its first add, and the SDK takes a collection's time before it runs the collection hook, so an add made only in
// the hook would start a point inside the collection that ends it. The self-metrics take their first add when the
// stats join the provider's hook, and what was recorded before a global provider was registered goes to it as soon
// as the stats find it, not at the next collection.
import type { HrTime } from '@opentelemetry/api';
import { metrics } from '@opentelemetry/api';
import type { DataPoint, ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { createBackupStats } from 'backupstats';
import { describe, expect, onTestFinished, vi } from 'vitest';
import { it } from '../support/fixtures.js';
import { createHarness } from '../support/harness.js';

/** A fake wall clock (Date only) set to `unixMillis`, real again when the test ends. */
function wallClockAt(unixMillis: number): void {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(unixMillis);
  onTestFinished(() => {
    vi.useRealTimers();
  });
}

/** Every point of the metric `name` in an export: its attributes, start, end and value. */
function pointsOf(exported: ResourceMetrics, name: string) {
  const metric = exported.scopeMetrics.flatMap((scope) => scope.metrics).find((m) => m.descriptor.name === name);
  return ((metric?.dataPoints ?? []) as DataPoint<unknown>[]).map((p) => ({
    attributes: p.attributes,
    startTime: p.startTime,
    endTime: p.endTime,
    value: p.value,
  }));
}

const T0 = 1_700_000_000_123;
const T1 = 1_700_000_007_456;
const T2 = 1_700_000_042_789;
const hr = (unixMillis: number): HrTime => [Math.floor(unixMillis / 1000), (unixMillis % 1000) * 1_000_000];

const LABELS = { component: 'C', implementation: 'I', operation: 'O' };

describe('where the points start', () => {
  it('the self-metrics: when the stats join their provider, not at the first collection', async ({ harness }) => {
    wallClockAt(T0);
    const stats = createBackupStats({ meterProvider: harness.provider });
    onTestFinished(() => stats.shutdown());
    vi.setSystemTime(T1);
    const exported = await harness.collect();
    const expected = (value: number) =>
      ['backup', 'restore', 'verify', 'prune'].map((family) => ({
        attributes: { family },
        startTime: hr(T0),
        endTime: hr(T1),
        value,
      }));
    // Nothing recorded yet: no series holds numbers.
    expect(pointsOf(exported, 'backupstats.scopes')).toEqual(expected(0));
    expect(pointsOf(exported, 'backupstats.invalid_measurements')).toEqual(expected(0));
  });

  it('numbers recorded before a global provider: when a scope() finds it, not at the next collection', async () => {
    wallClockAt(T0);
    const stats = createBackupStats();
    onTestFinished(() => stats.shutdown());
    stats.backup.scope(LABELS).timedIncrementBytes(1000, 5);
    const global = createHarness();
    expect(metrics.setGlobalMeterProvider(global.provider)).toBe(true);
    onTestFinished(async () => {
      metrics.disable();
      await global.shutdown();
    });
    vi.setSystemTime(T1);
    stats.backup.scope(LABELS);
    vi.setSystemTime(T2);
    const exported = await global.collect();
    expect(pointsOf(exported, 'backup.operations')).toEqual([
      { attributes: LABELS, startTime: hr(T1), endTime: hr(T2), value: 1 },
    ]);
    expect(pointsOf(exported, 'backup.bytes')).toEqual([
      { attributes: LABELS, startTime: hr(T1), endTime: hr(T2), value: 1000 },
    ]);
  });
});
