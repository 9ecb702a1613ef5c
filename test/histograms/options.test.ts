// The histogram options of createBackupStats and createHistogramProducer: what each accepts, and the whole message
// of the TypeError thrown at construction for anything else.

import { createBackupStats, createHistogramProducer, DEFAULT_HISTOGRAM_BOUNDARIES } from 'backupstats';
import { describe, expect } from 'vitest';
import { it } from '../support/fixtures.js';

const BOUNDARIES_ACCEPTED =
  'accepted: 1 to 64 finite numbers of seconds above 0, in increasing order (e.g. [0.001, 0.01, 0.1, 1, 10])';
const PRODUCERS_ACCEPTED = 'accepted: an array of producers made by createHistogramProducer()';

describe('histogram options of createBackupStats', () => {
  it('histograms: true or false', async () => {
    for (const histograms of [true, false]) await createBackupStats({ histograms }).shutdown();
    expect(() => createBackupStats({ histograms: 'yes' as never })).toThrow(
      new TypeError('backupstats: option histograms is "yes"; accepted: true or false'),
    );
    expect(() => createBackupStats({ histograms: 1 as never })).toThrow(
      new TypeError('backupstats: option histograms is 1; accepted: true or false'),
    );
  });

  it('histogramBoundaries: 1 to 64 increasing finite numbers above 0', async () => {
    const many = Array.from({ length: 65 }, (_, i) => (i + 1) / 10);
    for (const histogramBoundaries of [[5], many.slice(0, 64), [...DEFAULT_HISTOGRAM_BOUNDARIES]]) {
      await createBackupStats({ histogramBoundaries }).shutdown();
    }
    // The value and the rule it breaks, not only "is a value of type object".
    expect(() => createBackupStats({ histogramBoundaries: many })).toThrow(
      new TypeError(
        `backupstats: option histogramBoundaries is [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, … 65 items in all] (65 boundaries, more than 64); ${BOUNDARIES_ACCEPTED}`,
      ),
    );
    const cases = [
      [[0.2, 0.1], '[0.2, 0.1] (boundary 2 is 0.1, below 0.2: not increasing)'],
      [[0.1, Number.NaN], '[0.1, NaN] (boundary 2 is NaN, not a finite number above 0)'],
      [[-1], '[-1] (boundary 1 is -1, not a finite number above 0)'],
      [[1, 2, 2], '[1, 2, 2] (boundary 3 repeats 2)'],
      [[], '[] (empty)'],
      [['1'], '["1"] (boundary 1 is "1", not a finite number above 0)'],
    ] as const;
    for (const [bad, shown] of cases) {
      expect(() => createBackupStats({ histogramBoundaries: bad as never })).toThrow(
        new TypeError(`backupstats: option histogramBoundaries is ${shown}; ${BOUNDARIES_ACCEPTED}`),
      );
    }
    expect(() => createBackupStats({ histogramBoundaries: '0.1,1' as never })).toThrow(
      new TypeError(`backupstats: option histogramBoundaries is "0.1,1" (not an array); ${BOUNDARIES_ACCEPTED}`),
    );
  });

  it('histogramProducers: an array of producers made by createHistogramProducer()', async () => {
    await createBackupStats({ histogramProducers: [] }).shutdown();
    const producer = createHistogramProducer();
    await createBackupStats({ histogramProducers: [producer, createHistogramProducer()] }).shutdown();
    expect(() => createBackupStats({ histogramProducers: producer as never })).toThrow(
      new TypeError(`backupstats: option histogramProducers is an object; ${PRODUCERS_ACCEPTED}`),
    );
    expect(() => createBackupStats({ histogramProducers: 5 as never })).toThrow(
      new TypeError(`backupstats: option histogramProducers is 5; ${PRODUCERS_ACCEPTED}`),
    );
    expect(() => createBackupStats({ histogramProducers: {} as never })).toThrow(
      new TypeError(`backupstats: option histogramProducers is an object; ${PRODUCERS_ACCEPTED}`),
    );
    const holding = [
      [[null], '[null] (item 1 is null, not a producer)'],
      [[undefined], '[undefined] (item 1 is undefined, not a producer)'],
      [[{}], '[an object] (item 1 is an object, not a producer)'],
      [[{ collect: 'now' }], '[an object] (item 1 is an object, not a producer)'],
      [[producer, 'producer'], '[an object, "producer"] (item 2 is "producer", not a producer)'],
    ] as const;
    for (const [given, shown] of holding) {
      expect(() => createBackupStats({ histogramProducers: given as never })).toThrow(
        new TypeError(`backupstats: option histogramProducers is ${shown}; ${PRODUCERS_ACCEPTED}`),
      );
    }
  });

  it('a producer-like object that createHistogramProducer() did not make', () => {
    const lookalike = { aggregation: 'explicit', collect: async () => ({}) };
    expect(() => createBackupStats({ histogramProducers: [lookalike] as never })).toThrow(
      new TypeError(
        'backupstats: option histogramProducers is a value that createHistogramProducer() did not make; accepted: producers made by createHistogramProducer()',
      ),
    );
  });
});

describe('options of createHistogramProducer', () => {
  it('aggregation: explicit by default, or exponential', () => {
    expect(createHistogramProducer().aggregation).toBe('explicit');
    expect(createHistogramProducer({}).aggregation).toBe('explicit');
    expect(createHistogramProducer({ aggregation: undefined }).aggregation).toBe('explicit');
    expect(createHistogramProducer({ aggregation: 'exponential' }).aggregation).toBe('exponential');
  });

  it('options that are not an object', () => {
    expect(() => createHistogramProducer('exponential' as never)).toThrow(
      new TypeError(
        `backupstats: createHistogramProducer options is "exponential"; accepted: an object such as { aggregation: 'exponential' }, or nothing`,
      ),
    );
    expect(() => createHistogramProducer(null as never)).toThrow(
      new TypeError(
        `backupstats: createHistogramProducer options is null; accepted: an object such as { aggregation: 'exponential' }, or nothing`,
      ),
    );
  });
});
