import { createHistogram } from 'node:perf_hooks';
import { DDSketch } from '@datadog/sketches-js';
import * as hdr from 'hdr-histogram-js';
import { Histogram, Registry } from 'prom-client';

/** A case of the record-cost benchmark: `fn(n)` makes `n` records. */
interface RecordCase {
  readonly name: string;
  readonly records: number;
  readonly fn: (n: number) => void;
}

/**
 * The other JavaScript histograms, each recording the same durations as backupstats' histogram row: the values of
 * `durations` (milliseconds, length a power of two) in the unit each takes, converted once before the timed loops
 * (hdr-histogram-js and perf_hooks take integers: nanoseconds). They record a duration alone, without the
 * operation, bytes and time counters that backupstats' record adds beside its histogram.
 */
export async function histogramAnchors(
  durations: readonly number[],
  fast: number,
  slow: number,
): Promise<RecordCase[]> {
  const mask = durations.length - 1;
  const nanos = durations.map((ms) => Math.max(1, Math.round(ms * 1e6)));
  const seconds = durations.map((ms) => ms / 1000);
  await hdr.initWebAssembly();
  const hdrOptions = {
    lowestDiscernibleValue: 1,
    highestTrackableValue: 3.6e12,
    numberOfSignificantValueDigits: 2,
  } as const;
  const hdrWasm = hdr.build({ ...hdrOptions, useWebAssembly: true });
  const hdrJs = hdr.build({ ...hdrOptions, useWebAssembly: false });
  const sketch = new DDSketch({ relativeAccuracy: 0.01 });
  const perfHistogram = createHistogram();
  const registry = new Registry();
  const promHistogram = new Histogram({
    name: 'backup_operation_duration_seconds',
    help: 'duration',
    labelNames: ['component', 'implementation', 'operation'],
    registers: [registry],
  });
  const promBound = promHistogram.labels('BackupEngine', 'Builtin', 'Source:Read');
  return [
    {
      name: 'hdr-histogram-js (wasm) recordValue, 2 significant digits, ns',
      records: fast,
      fn: (n) => {
        for (let i = 0; i < n; i++) hdrWasm.recordValue(nanos[i & mask] as number);
      },
    },
    {
      name: 'hdr-histogram-js (JS) recordValue, 2 significant digits, ns',
      records: fast / 10,
      fn: (n) => {
        for (let i = 0; i < n; i++) hdrJs.recordValue(nanos[i & mask] as number);
      },
    },
    {
      name: '@datadog/sketches-js DDSketch accept, 1 % accuracy, ms',
      records: fast,
      fn: (n) => {
        for (let i = 0; i < n; i++) sketch.accept(durations[i & mask] as number);
      },
    },
    {
      name: 'perf_hooks.createHistogram().record, ns',
      records: fast,
      fn: (n) => {
        for (let i = 0; i < n; i++) perfHistogram.record(nanos[i & mask] as number);
      },
    },
    {
      name: 'prom-client Histogram, pre-bound child .observe, s',
      records: slow,
      fn: (n) => {
        for (let i = 0; i < n; i++) promBound.observe(seconds[i & mask] as number);
      },
    },
  ];
}
