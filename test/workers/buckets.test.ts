// A worker finds a duration's buckets with its own code (the record goes into shared memory, not into a
// LocalHistogram): the same durations recorded in a worker and on the main thread must land in the same buckets,
// on the boundaries, past the edges of the exponential range and at zero included.
import { describe, expect } from 'vitest';
import { it } from '../support/fixtures.js';
import { statsWithHistograms } from '../support/worker-stats.js';
import { startRecordingWorker } from '../support/workers.js';

/** Milliseconds: zero, under 1 µs, on explicit boundaries (1 s, 2.5 ms), just past one, inside buckets, over 1 h. */
const DURATIONS_MS = [0, 0.0004, 0.001, 0.01, 0.025, 0.3, 2.5, 2.5000001, 7, 999.9999, 1000, 1000.0000001, 4e6, 1e8];

describe('histogram buckets of worker threads', () => {
  for (const aggregation of ['explicit', 'exponential'] as const) {
    it(`a worker puts every duration in the ${aggregation} buckets the main thread puts it in`, async () => {
      const main = statsWithHistograms({}, aggregation);
      const threaded = statsWithHistograms({}, aggregation);
      const worker = await startRecordingWorker(threaded.stats.workerLink());
      for (const [i, ms] of DURATIONS_MS.entries()) {
        const labels = { operation: `d-${i}` };
        main.stats.backup.scope(labels).timedIncrement(ms);
        await worker.run({ kind: 'loop', count: 1, ms, labels });
      }
      const [expected, actual] = [await main.collect(), await threaded.collect()];
      for (const i of DURATIONS_MS.keys()) {
        const point = actual.histogram({ operation: `d-${i}` });
        expect(point?.count, `${DURATIONS_MS[i]} ms`).toBe(1);
        expect(point, `${DURATIONS_MS[i]} ms`).toEqual(expected.histogram({ operation: `d-${i}` }));
      }
    });
  }
});
