import { meterIterable, meterReadable } from 'backupstats';
import { createRecordingStats } from 'backupstats/testing';
import { describe, expect, it, vi } from 'vitest';
import { expectDurations, spend, useFakeClock, waitingSource } from '../support/fake-clock.js';

const clock = useFakeClock();

/** Puts the timed item of every block of four last (places are ⌊random × N⌋). */
function timeLastOfFour(): void {
  vi.spyOn(Math, 'random').mockReturnValue(3.5 / 4);
}

const weights = (stats: { calls: readonly { weight: number }[] }) => stats.calls.map((c) => c.weight);

describe('timeOneIn: 4, the fourth item of each block timed', () => {
  it('meterIterable reads the clock twice per timed item, when it is asked for and when it arrives', async () => {
    timeLastOfFour();
    const stats = createRecordingStats();
    // The source takes i + 1 ms to produce item i; the consumer 100 ms per item, which is not counted.
    async function* source(): AsyncGenerator<Buffer> {
      for (let i = 0; i < 8; i++) {
        spend(i + 1);
        yield Buffer.alloc(i + 1);
      }
    }
    const metered = meterIterable(source(), stats, { timeOneIn: 4 });
    clock().mockClear();
    for await (const _item of metered) spend(100);
    expect(stats.calls.map((c) => c.bytes)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expectDurations(stats, [0, 0, 0, 4, 0, 0, 0, 8]);
    expect(weights(stats)).toEqual([0, 0, 0, 4, 0, 0, 0, 4]);
    // The fourth and eighth items take two reads each; the first item, untimed, is asked for without a read.
    expect(clock()).toHaveBeenCalledTimes(2 * 2);
  });

  it('meterReadable reads the clock three times per timed chunk and never for an untimed one', async () => {
    timeLastOfFour();
    const stats = createRecordingStats();
    const waits = [1, 2, 3, 4, 5, 6, 7, 8];
    const source = waitingSource(waits, (_index, wait) => wait);
    clock().mockClear();
    meterReadable(source, stats, { timeOneIn: 4 });
    for await (const _chunk of source) {
      // Node asks for the next chunk before handing this one over: time spent here would be part of its wait.
    }
    expect(stats.calls.map((c) => c.bytes)).toEqual(waits);
    // The timed chunk's wait starts at its read request, which comes after the chunk before it.
    expectDurations(stats, [0, 0, 0, 4, 0, 0, 0, 8]);
    expect(weights(stats)).toEqual([0, 0, 0, 4, 0, 0, 0, 4]);
    // One at metering; for chunks 4 and 8, the chunk before it, its read request and its arrival.
    expect(clock()).toHaveBeenCalledTimes(1 + 2 * 3);
  });
});
