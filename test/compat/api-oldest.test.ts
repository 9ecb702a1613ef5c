// The widest @opentelemetry/api peer range, held to its lower end: the core (createBackupStats and its
// instruments, the batch observable callback that flushes before a collection, the global provider it
// follows) on the oldest API the range accepts, with a real SDK that runs on that API. Both come from the
// private workspace package packages/compat-api-oldest.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RUN_DURATION_BOUNDARIES } from 'backupstats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScopeTotal } from '../fixtures/workload.mjs';
import { startFixture } from '../support/child.js';
import { expectedSeries, mismatches } from '../support/e2e-expected.js';
import { copyLibraryInto, type LibraryCopy } from '../support/library-copy.js';
import type { AttributeValue } from '../support/otlp-receiver.js';
import { seriesKey } from '../support/series-key.js';

const compatDir = fileURLToPath(new URL('../../packages/compat-api-oldest', import.meta.url));
const compat = JSON.parse(readFileSync(join(compatDir, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
};
const library = JSON.parse(
  readFileSync(createRequire(import.meta.url).resolve('backupstats/package.json'), 'utf8'),
) as {
  peerDependencies: Record<string, string>;
};

interface Exported {
  readonly case: string;
  readonly totals: ScopeTotal[];
  readonly points: Array<{ metric: string; attributes: Record<string, AttributeValue>; value: number }>;
}

describe('the oldest @opentelemetry/api the peer range accepts', () => {
  let copy: LibraryCopy | undefined;
  let events: Array<Record<string, unknown>> = [];

  beforeAll(async () => {
    copy = await copyLibraryInto(compatDir, ['api-oldest-job.mjs', 'workload.mjs']);
    const child = startFixture(join(copy.dir, 'api-oldest-job.mjs'), {}, { cwd: copy.dir });
    const end = await child.exited();
    expect(end, child.stderr()).toEqual({ code: 0, signal: null });
    events = child
      .stdout()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  });
  afterAll(async () => {
    await copy?.remove();
  });

  it("is the lower end of the library's peer range, and the version the test really loads", () => {
    const oldest = compat.dependencies['@opentelemetry/api'];
    expect(oldest).toBe('1.3.0');
    expect(library.peerDependencies['@opentelemetry/api']).toBe(`^${oldest}`);
    expect(events[0]).toEqual({
      event: 'versions',
      api: oldest,
      sdkMetrics: compat.dependencies['@opentelemetry/sdk-metrics'],
    });
  });

  it.each(['given provider, esm', 'given provider, cjs', 'global provider registered later'])(
    '%s: the SDK exports exactly what was recorded',
    (name) => {
      const exported = events.find((e) => e.event === 'exported' && e.case === name) as Exported | undefined;
      expect(exported, name).toBeDefined();
      const { totals, points } = exported as Exported;
      expect(totals.reduce((sum, t) => sum + t.count, 0)).toBe(20 * 10 * 6);
      const actual = new Map(points.map((p) => [seriesKey(p.metric, p.attributes), p.value]));
      expect(mismatches(expectedSeries(totals, 'otel'), actual)).toEqual([]);
    },
  );

  it('runs: by outcome and reason, durations in the advised buckets, the last success and failure and the progress as gauges', () => {
    const runs = events.find((e) => e.event === 'exported' && e.case === 'runs') as
      | { points: Array<{ metric: string; attributes: Record<string, AttributeValue>; value: unknown }> }
      | undefined;
    const scope = { component: 'BackupEngine', implementation: 'Builtin', operation: 'Backup' };
    const sorted = (attributes: Record<string, unknown>) => JSON.stringify(Object.entries(attributes).sort());
    const value = (metric: string, attributes: Record<string, string>): unknown =>
      runs?.points.find((p) => p.metric === metric && sorted(p.attributes) === sorted(attributes))?.value;
    expect(value('backup.runs', { ...scope, outcome: 'success' })).toBe(1);
    expect(value('backup.runs', { ...scope, outcome: 'failure', 'error.type': 'source' })).toBe(1);
    expect(value('backup.runs', { ...scope, outcome: 'failure', 'error.type': 'interrupted' })).toBe(0);
    expect(value('backup.run.duration', { ...scope, outcome: 'failure' })).toMatchObject({
      count: 1,
      buckets: { boundaries: [...RUN_DURATION_BOUNDARIES] },
    });
    expect(value('backup.last_success.bytes', scope)).toBe(4096);
    expect(value('backup.last_failure.timestamp', scope)).toBeGreaterThanOrEqual(
      value('backup.last_success.timestamp', scope) as number,
    );
    // Observable on this API: a run in progress, half done, in its phase.
    expect(value('backup.active_runs', scope)).toBe(1);
    expect(value('backup.run.progress', scope)).toBe(0.5);
    expect(value('backup.run.phase', { ...scope, phase: 'copy' })).toBe(1);
  });

  it('latency histograms reach the SDK of that time through a MetricProducer, explicit and exponential', () => {
    const found = events.find((e) => e.event === 'exported' && e.case === 'histograms') as
      | { histograms: Array<{ dataPointType: number; value: Record<string, unknown> }> }
      | undefined;
    const [explicit, exponential] = found?.histograms ?? [];
    // DataPointType.HISTOGRAM and EXPONENTIAL_HISTOGRAM, as sdk-metrics 1.30.1 numbers them.
    expect(explicit?.dataPointType).toBe(0);
    expect(explicit?.value).toMatchObject({ count: 5, min: 0.0005, max: 0.7 });
    expect(explicit?.value.sum).toBeCloseTo(0.7445, 9);
    expect(exponential?.dataPointType).toBe(1);
    expect(exponential?.value).toMatchObject({ count: 5, scale: 3, zeroCount: 0 });
  });
});
