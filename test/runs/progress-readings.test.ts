// How a run's progress reading is made, through a real MeterProvider on a fake clock (Date and performance): which
// samples of the flushes the window of the last minute starts at, the bytes pending since the latest flush, the
// bytes of other operations, a size given late, and flushes that meet a run at unusual moments (before the stats
// have a provider, while the instruments take a flush). test/runs/progress.test.ts covers the values over a run.
import { type Counter, type Meter, type MeterProvider, metrics } from '@opentelemetry/api';
import { createBackupStats, Operation, type Run } from 'backupstats';
import { afterEach, describe, expect, onTestFinished, vi } from 'vitest';
import { it } from '../support/fixtures.js';
import { createHarness, numbers } from '../support/harness.js';
import { createRecordingMeterProvider } from '../support/recording-meter.js';
import { runKey } from '../support/series-key.js';
import { at, T0, useFakeWallClock } from '../support/wall-clock.js';

const RUN = { component: 'BackupEngine', implementation: 'Builtin', operation: Operation.Backup };
const SOURCE = { ...RUN, operation: Operation.SourceRead };
const COMPRESSOR = { ...RUN, operation: Operation.CompressorWrite };
const NOT_NOW = { flushIntervalMillis: 2 ** 30 };
const PROGRESS = runKey('backup.run.progress', RUN);
const REMAINING = runKey('backup.run.remaining_time', RUN);
const LAST_PROGRESS = runKey('backup.last_progress.timestamp', RUN);

useFakeWallClock();
afterEach(() => {
  metrics.disable();
});

/**
 * Stats on `provider` that flush only when told, and their source series, created with a first byte before any run
 * starts: its later bytes then wait in the series for a flush.
 */
function statsWithSource(provider: MeterProvider) {
  const stats = createBackupStats({ meterProvider: provider, ...NOT_NOW });
  const source = stats.backup.scope(SOURCE);
  source.timedIncrementBytes(1, 1);
  return { stats, source };
}

describe('the window of the last minute', () => {
  it('starts at the newest sample a minute old; a flush under 3.75 s after the sample before the latest replaces the latest', async ({
    harness,
  }) => {
    const { stats, source } = statsWithSource(harness.provider);
    stats.backup.scope(RUN).startRun({ expectedBytes: 3400 });
    const flushAt = (millis: number, bytes: number) => {
      vi.setSystemTime(T0 + millis);
      source.timedIncrementBytes(bytes, 1);
      stats.flush();
    };
    flushAt(1000, 100);
    // 2 s after the start, the sample before the latest: replaces the sample at 1 s.
    flushAt(2000, 100);
    // 3.75 s after the start: kept besides the one at 2 s.
    flushAt(3750, 200);
    vi.setSystemTime(T0 + 62_000);
    source.timedIncrementBytes(1000, 1);
    const values = numbers(await harness.collect());
    expect(values.get(PROGRESS)).toBeCloseTo(1400 / 3400, 12);
    // The window, 2 s to 62 s, starts at the sample at 2 s: 1200 B in 60 s, 20 B/s. 2000 B left take 100 s.
    expect(values.get(REMAINING)).toBe(100);
  });

  it('starts a minute before a collection whose observable gauges read before its flush, not before the latest flush', async ({
    harness,
  }) => {
    // On an API without createGauge the progress gauges are observable: read in the collection's callbacks, here
    // before the collection's own flush, so the latest flush is a minute older than the window's start.
    const { provider } = createRecordingMeterProvider(harness.provider, { withoutCreateGauge: true });
    const { stats, source } = statsWithSource(provider);
    stats.backup.scope(RUN).startRun({ expectedBytes: 10_000 });
    for (const second of [10, 20]) {
      vi.setSystemTime(T0 + second * 1000);
      source.timedIncrementBytes(100, 1);
      stats.flush();
    }
    vi.setSystemTime(T0 + 80_000);
    source.timedIncrementBytes(300, 1);
    const values = numbers(await harness.collect());
    expect(values.get(PROGRESS)).toBe(0.05);
    // The window, 20 s to 80 s, starts at the flush at 20 s: 300 B in 60 s, 5 B/s. 9500 B left take 1900 s.
    expect(values.get(REMAINING)).toBe(1900);
  });

  it('has no throughput in the millisecond of the start: a run that moved then tells no time left (+Inf)', async ({
    harness,
  }) => {
    const { stats, source } = statsWithSource(harness.provider);
    stats.backup.scope(RUN).startRun({ expectedBytes: 1000 });
    source.timedIncrementBytes(100, 1);
    const values = numbers(await harness.collect());
    expect(values.get(PROGRESS)).toBe(0.1);
    expect(values.get(REMAINING)).toBe(Number.POSITIVE_INFINITY);
  });
});

describe('the bytes a reading counts', () => {
  it("at a run's end: its operation's bytes recorded since the latest flush, moved then; no other operation's", async ({
    harness,
  }) => {
    const { stats, source } = statsWithSource(harness.provider);
    const compressor = stats.backup.scope(COMPRESSOR);
    compressor.timedIncrementBytes(1, 1);
    const run = stats.backup.scope(RUN).startRun({ expectedBytes: 1000 });
    vi.advanceTimersByTime(5000);
    source.timedIncrementBytes(100, 1);
    stats.flush();
    vi.advanceTimersByTime(5000);
    source.timedIncrementBytes(150, 1);
    compressor.timedIncrementBytes(70, 1);
    run.succeed();
    const values = numbers(await harness.collect());
    expect(values.get(PROGRESS)).toBe(0.25);
    expect(values.get(LAST_PROGRESS)).toBe(at(10));
    expect(values.get(REMAINING)).toBe(0);
  });

  it("a byte's fraction that a flush leaves for the next one once: the flush took the whole bytes", async ({
    harness,
  }) => {
    const { stats, source } = statsWithSource(harness.provider);
    stats.backup.scope(RUN).startRun({ expectedBytes: 1000 });
    source.timedIncrementBytes(100.5, 1);
    vi.advanceTimersByTime(1000);
    stats.flush();
    const values = numbers(await harness.collect());
    expect(values.get(PROGRESS)).toBeCloseTo(0.1005, 12);
  });

  it("not another operation's bytes pending at the start: they take nothing from the run's progress", async ({
    harness,
  }) => {
    const { stats, source } = statsWithSource(harness.provider);
    const compressor = stats.backup.scope(COMPRESSOR);
    compressor.timedIncrementBytes(1, 1);
    source.timedIncrementBytes(30, 1);
    compressor.timedIncrementBytes(50, 1);
    stats.backup.scope(RUN).startRun({ expectedBytes: 1000 });
    vi.advanceTimersByTime(1000);
    stats.flush();
    source.timedIncrementBytes(100, 1);
    vi.advanceTimersByTime(1000);
    const values = numbers(await harness.collect());
    expect(values.get(PROGRESS)).toBe(0.1);
  });

  it('of a run given its size late: those of a series created since its start, and no other operation', async ({
    harness,
  }) => {
    const stats = createBackupStats({ meterProvider: harness.provider, ...NOT_NOW });
    const compressor = stats.backup.scope(COMPRESSOR);
    compressor.timedIncrementBytes(1, 1);
    const run = stats.backup.scope(RUN).startRun();
    compressor.timedIncrementBytes(500, 1);
    // Created after the start: its first bytes go to the instruments at once.
    const source = stats.backup.scope(SOURCE);
    source.timedIncrementBytes(100, 1);
    stats.flush();
    source.timedIncrementBytes(50, 1);
    run.expectBytes(1000);
    vi.advanceTimersByTime(1000);
    const values = numbers(await harness.collect());
    expect(values.get(PROGRESS)).toBe(0.15);
  });
});

describe('flushes at unusual moments', () => {
  it('a run started before the stats find a provider counts what their first flush takes', async () => {
    const stats = createBackupStats(NOT_NOW);
    onTestFinished(() => stats.shutdown());
    stats.backup.scope(RUN).startRun({ expectedBytes: 1000 });
    // No provider yet: the bytes wait.
    stats.backup.scope(SOURCE).timedIncrementBytes(100, 1);
    vi.advanceTimersByTime(1000);
    const global = createHarness();
    onTestFinished(() => global.shutdown());
    metrics.setGlobalMeterProvider(global.provider);
    stats.flush();
    vi.advanceTimersByTime(1000);
    const values = numbers(await global.collect());
    expect(values.get(PROGRESS)).toBe(0.1);
  });

  it("a run started while the instruments take a flush counts none of that flush's bytes, and the later ones", async ({
    harness,
  }) => {
    // A provider whose time counter calls `during` once, after it added: the bytes of the series are taken by then.
    let during: (() => void) | undefined;
    const calling = (counter: Counter): Counter => ({
      add(value, attributes, context) {
        counter.add(value, attributes, context);
        const call = during;
        during = undefined;
        call?.();
      },
    });
    const provider: MeterProvider = {
      getMeter(name, version, options): Meter {
        const meter = harness.provider.getMeter(name, version, options);
        return Object.assign(Object.create(meter) as Meter, {
          createCounter: (counterName: string, counterOptions?: object) => {
            const counter = meter.createCounter(counterName, counterOptions);
            return counterName === 'backup.time' ? calling(counter) : counter;
          },
        });
      },
    };
    const { stats, source } = statsWithSource(provider);
    source.timedIncrementBytes(100, 1);
    let run: Run | undefined;
    during = () => {
      run = stats.backup.scope(RUN).startRun({ expectedBytes: 1000 });
    };
    stats.flush();
    expect(run).toBeDefined();
    source.timedIncrementBytes(250, 1);
    vi.advanceTimersByTime(1000);
    const values = numbers(await harness.collect());
    expect(values.get(PROGRESS)).toBe(0.25);
  });
});
