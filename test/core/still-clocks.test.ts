// A call that waits for the wall clock's millisecond to pass (base/wall-clock.ts: the end of a call that started a
// point, so that no collection takes its time in it), on clocks that do not move: a fake Date, and a monotonic clock
// that stands still too. The wait gives up once neither moved over a thousand reads, rather than hang, and reads
// the monotonic clock once per 1,024 reads of the wall clock, not at every one.
import { createBackupStats } from 'backupstats';
import { describe, expect, onTestFinished, vi } from 'vitest';
import { it } from '../support/fixtures.js';

describe('a run started and ended while both clocks stand still', () => {
  it('returns, each call reading the monotonic clock twice: after 1,024 reads of the wall clock and after 2,048', ({
    harness,
  }) => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(1_700_000_000_123);
    const monotonic = vi.spyOn(process.hrtime, 'bigint').mockReturnValue(5_000_000n);
    onTestFinished(() => {
      monotonic.mockRestore();
      vi.useRealTimers();
    });
    const stats = createBackupStats({ meterProvider: harness.provider });
    onTestFinished(() => stats.shutdown());
    monotonic.mockClear();
    const run = stats.backup.startRun();
    expect(monotonic).toHaveBeenCalledTimes(2);
    run.succeed();
    expect(monotonic).toHaveBeenCalledTimes(4);
  });
});
