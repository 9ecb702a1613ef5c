// The run and progress tests' clock: vitest's fake Date and performance, set to T0 before each test, so that a
// gauge's value or a point's start can be checked to the second. And the points of an export by run series.
import type { HrTime } from '@opentelemetry/api';
import type { ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { afterEach, beforeEach, vi } from 'vitest';
import { runKey } from './series-key.js';

/** Far from the epoch and a whole second: every time the tests expect is T0 plus whole seconds. */
export const T0 = Date.UTC(2026, 11, 1, 23, 0, 0);

/** T0 plus `seconds`, in Unix seconds (the unit of the timestamp gauges and of a point's start). */
export const at = (seconds: number): number => T0 / 1000 + seconds;

/** Fakes Date and performance at T0 around every test of the file (move it with `vi.advanceTimersByTime`). */
export function useFakeWallClock(): void {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date', 'performance'] });
    vi.setSystemTime(T0);
  });
  afterEach(() => {
    vi.useRealTimers();
  });
}

/** runKey → the value (a number, or a histogram's) and the start in Unix seconds of every point of `exported`. */
export function pointsByRun(exported: ResourceMetrics): Map<string, { value: unknown; start: number }> {
  const seconds = ([s, ns]: HrTime): number => s + ns / 1e9;
  return new Map(
    exported.scopeMetrics.flatMap((scope) =>
      scope.metrics.flatMap((metric) =>
        metric.dataPoints.map(
          (p) =>
            [runKey(metric.descriptor.name, p.attributes), { value: p.value, start: seconds(p.startTime) }] as const,
        ),
      ),
    ),
  );
}
