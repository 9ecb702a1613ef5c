import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Operation, timeAsync, timeSync } from 'backupstats';
import { createRecordingStats } from 'backupstats/testing';
import { describe, expect, it } from 'vitest';

describe('timeSync', () => {
  it('returns the result and records one operation', () => {
    const stats = createRecordingStats();
    expect(timeSync(stats, () => 42)).toBe(42);
    expect(stats.calls).toHaveLength(1);
    expect(stats.calls[0]).toMatchObject({ method: 'timedIncrement', bytes: 0 });
    expect(Number.isFinite(stats.calls[0]?.durationMillis)).toBe(true);
  });

  it('rethrows and records nothing on failure, unless recordFailures', () => {
    const stats = createRecordingStats();
    const failure = new Error('close failed');
    expect(() =>
      timeSync(stats, () => {
        throw failure;
      }),
    ).toThrow(failure);
    expect(stats.calls).toHaveLength(0);
    expect(() =>
      timeSync(
        stats,
        () => {
          throw failure;
        },
        { recordFailures: true },
      ),
    ).toThrow(failure);
    expect(stats.totals()).toMatchObject({ count: 1, bytes: 0 });
  });

  it('records bytes given as a number or read from the result', () => {
    const stats = createRecordingStats();
    timeSync(stats, () => 'part', { bytes: 5 * 1024 * 1024 });
    timeSync(stats, () => Buffer.alloc(77), { bytes: (b) => b.length });
    expect(stats.calls.map((c) => [c.method, c.bytes])).toEqual([
      ['timedIncrementBytes', 5 * 1024 * 1024],
      ['timedIncrementBytes', 77],
    ]);
  });
});

describe('timeAsync', () => {
  it('times a real open and close and records each once', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'backupstats-timed-'));
    try {
      const stats = createRecordingStats();
      const openStats = stats.scope({ operation: Operation.DestinationOpen });
      const closeStats = stats.scope({ operation: Operation.DestinationClose });
      const handle = await timeAsync(openStats, () => open(join(dir, 'file'), 'w'));
      await handle.write(Buffer.alloc(10));
      await timeAsync(closeStats, () => handle.close(), { recordFailures: true });
      expect(stats.totals({ operation: Operation.DestinationOpen }).count).toBe(1);
      expect(stats.totals({ operation: Operation.DestinationClose }).count).toBe(1);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('rejects and records nothing on failure, a synchronous throw included, unless recordFailures', async () => {
    const stats = createRecordingStats();
    await expect(timeAsync(stats, () => open('/nonexistent/backupstats/file', 'r'))).rejects.toMatchObject({
      code: 'ENOENT',
    });
    const failure = new Error('sync');
    await expect(
      timeAsync(stats, () => {
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(stats.calls).toHaveLength(0);
    await expect(timeAsync(stats, () => Promise.reject(failure), { recordFailures: true, bytes: 8 })).rejects.toBe(
      failure,
    );
    expect(stats.calls.map((c) => [c.method, c.bytes])).toEqual([['timedIncrementBytes', 8]]);
  });

  it('records bytes read from the resolved value', async () => {
    const stats = createRecordingStats();
    const value = await timeAsync(stats, async () => ({ bytesRead: 4096 }), { bytes: (r) => r.bytesRead });
    expect(value).toEqual({ bytesRead: 4096 });
    expect(stats.totals()).toMatchObject({ count: 1, bytes: 4096 });
  });
});
