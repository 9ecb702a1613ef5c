// @ts-nocheck
// A worker finds a duration's buckets with its own code (the record goes into shared memory, not into a
// LocalHistogram): the same durations recorded in a worker and on the main thread must land in the same buckets,
// on the boundaries, past the edges of the exponential range and at zero included.
import { describe, expect } from 'vitest';
import { it } from '../support/fixtures.js';
import { EDGE_DURATIONS_MS, statsWithHistograms } from '../support/histogram-stats.js';
import { startRecordingWorker } from '../support/workers.js';

describe('histogram buckets of worker threads', () => {
  for (const aggregation of ['explicit', 'exponential'] as const) {
    it(`a worker puts every duration in the ${aggregation} buckets the main thread puts it in`, async () => {
      const main = statsWithHistograms({}, aggregation);
      const threaded = statsWithHistograms({}, aggregation);
      const worker = await startRecordingWorker(threaded.stats.workerLink());
      for (const [i, ms] of EDGE_DURATIONS_MS.entries()) {
        const labels = { operation: `d-${i}` };
        main.stats.backup.scope(labels).timedIncrement(ms);
        await worker.run({ kind: 'loop', count: 1, ms, labels });
      }
      const [expected, actual] = [await main.collect(), await threaded.collect()];
      for (const i of EDGE_DURATIONS_MS.keys()) {
        const point = actual.histogram({ operation: `d-${i}` });
        expect(point?.count, `${EDGE_DURATIONS_MS[i]} ms`).toBe(1);
        expect(point, `${EDGE_DURATIONS_MS[i]} ms`).toEqual(expected.histogram({ operation: `d-${i}` }));
      }
    });
  }
});
