// What connectBackupStats accepts as a link and what workerLink() accepts as options, in process. A link arrives in
// a worker cloned (workerData, postMessage), so the check looks at its shape: every part of it that could be wrong is
// refused, naming what was given; a clone of a real link is accepted and records into the same memory. The parts
// are internal (the public type shows only the mark): `Fields` is what a link carries today, for these checks only.
import { createBackupStats, createHistogramProducer, type WorkerLink } from 'backupstats';
import { connectBackupStats } from 'backupstats/worker';
import { describe, expect, onTestFinished } from 'vitest';
import { it } from '../support/fixtures.js';
import { valuesByKey } from '../support/harness.js';

/** What a link carries besides its mark (link/worker-link.ts's LinkData). */
interface Fields {
  readonly control: SharedArrayBuffer | undefined;
  readonly places: readonly SharedArrayBuffer[];
  readonly maxScopes: number;
  readonly histogramBoundaries: readonly number[] | undefined;
}
const fields = (link: WorkerLink): Fields => link as unknown as Fields;

const ACCEPTED =
  'accepted: the value stats.workerLink() returned on the main thread, passed in workerData or postMessage';
const refusal = (shown: string): string => `backupstats: connectBackupStats link is ${shown}; ${ACCEPTED}`;

/** Options of stats that keep histograms with two explicit boundaries, or none. */
const withHistograms = (histograms: boolean) =>
  histograms ? { histogramProducers: [createHistogramProducer()], histogramBoundaries: [0.001, 1] } : {};

/** A link of real stats, with histograms or without, shut down when the test ends. */
function realLink(histograms: boolean, maxScopes = 4): WorkerLink & Fields {
  const stats = createBackupStats(withHistograms(histograms));
  onTestFinished(() => stats.shutdown());
  return stats.workerLink({ maxScopes }) as WorkerLink & Fields;
}

describe('connectBackupStats refuses what is not a link', () => {
  const link = (): WorkerLink & Fields => realLink(true);
  /** Memory of a place's size that is not shared. */
  const unshared = (): ArrayBuffer => new ArrayBuffer((link().places[0] as SharedArrayBuffer).byteLength);
  const cases: [string, () => unknown, string][] = [
    ['undefined', () => undefined, 'undefined'],
    ['null', () => null, 'null'],
    ['a number', () => 1, '1'],
    ['a string', () => 'link', '"link"'],
    ['an array', () => [], 'an instance of Array'],
    ['a function carrying a link', () => Object.assign(() => {}, link()), 'a function'],
    ['no mark', () => ({ ...link(), backupstatsWorkerLink: undefined }), 'an object'],
    ['another mark', () => ({ ...link(), backupstatsWorkerLink: 2 }), 'an object'],
    ['a control that is not shared', () => ({ ...link(), control: new ArrayBuffer(4) }), 'an object'],
    ['places that are no array', () => ({ ...link(), places: link().places[0] }), 'an object'],
    ['a place that is not shared', () => ({ ...link(), places: [...link().places, unshared()] }), 'an object'],
    [
      'a place of the wrong size',
      () => ({ ...link(), places: [...link().places, ...realLink(true, 5).places] }),
      'an object',
    ],
    ['a place sized for no histograms', () => ({ ...link(), places: realLink(false).places }), 'an object'],
    ['maxScopes missing', () => ({ ...link(), maxScopes: undefined }), 'an object'],
    ['maxScopes below 2', () => ({ ...link(), maxScopes: 1 }), 'an object'],
    ['maxScopes above 65536', () => ({ ...link(), maxScopes: 65_537 }), 'an object'],
    ['maxScopes not an integer', () => ({ ...link(), maxScopes: 4.5 }), 'an object'],
    ['boundaries that are no array', () => ({ ...link(), histogramBoundaries: 0.5 }), 'an object'],
    ['a boundary that is no number', () => ({ ...link(), histogramBoundaries: [0.001, '1'] }), 'an object'],
    ['boundaries another link has', () => ({ ...link(), histogramBoundaries: [0.001, 0.01, 1] }), 'an object'],
  ];
  for (const [what, value, shown] of cases) {
    it(what, () => {
      const connecting = () => connectBackupStats(value() as WorkerLink);
      expect(connecting).toThrow(new TypeError(refusal(shown)));
      expect(connecting).toThrow(expect.objectContaining({ code: 'BACKUPSTATS_INVALID_ARGUMENT' }));
    });
  }
});

describe('connectBackupStats accepts', () => {
  for (const histograms of [false, true]) {
    it(`a clone of a link ${histograms ? 'with' : 'without'} histograms, recording into the memory of the original`, async ({
      harness,
    }) => {
      const stats = createBackupStats({
        meterProvider: harness.provider,
        ...withHistograms(histograms),
      });
      onTestFinished(() => stats.shutdown());
      const link = stats.workerLink({ maxScopes: 2 });
      expect(fields(link).histogramBoundaries).toEqual(histograms ? [0.001, 1] : undefined);
      const worker = connectBackupStats(structuredClone(link));
      onTestFinished(() => worker.close());
      worker.backup.timedIncrementBytes(3, 1);
      expect(valuesByKey(await harness.collect()).get('backup.bytes{-,-,-}')).toBe(3);
    });
  }

  it('a link of stats that record nothing, however its places look', () => {
    const disabled: WorkerLink & Fields = {
      backupstatsWorkerLink: 1,
      control: undefined,
      places: [new SharedArrayBuffer(8)],
      maxScopes: 2,
      histogramBoundaries: undefined,
    };
    const worker = connectBackupStats(disabled);
    expect(() => worker.backup.timedIncrement(1)).not.toThrow();
    worker.close();
  });
});

describe('workerLink() options', () => {
  const stats = (): ReturnType<typeof createBackupStats> => {
    const created = createBackupStats();
    onTestFinished(() => created.shutdown());
    return created;
  };
  const workers = 'an integer from 1 to 1024 (worker threads recording through the link at once)';
  const maxScopes = 'an integer from 2 to 65536 (per worker and family, the overflow series included)';
  const refused: [unknown, string][] = [
    [{ workers: 0 }, `workerLink option workers is 0; accepted: ${workers}`],
    [{ workers: 1025 }, `workerLink option workers is 1025; accepted: ${workers}`],
    [{ workers: '2' }, `workerLink option workers is "2"; accepted: ${workers}`],
    [{ maxScopes: 1 }, `workerLink option maxScopes is 1; accepted: ${maxScopes}`],
    [{ maxScopes: 65_537 }, `workerLink option maxScopes is 65537; accepted: ${maxScopes}`],
    [{ maxScopes: 2.5 }, `workerLink option maxScopes is 2.5; accepted: ${maxScopes}`],
    [4, 'workerLink options is 4; accepted: an object such as { workers: 4 }, or nothing'],
  ];
  for (const [options, message] of refused) {
    it(`refuses ${JSON.stringify(options)}`, () => {
      const linking = () => stats().workerLink(options as never);
      expect(linking).toThrow(new TypeError(`backupstats: ${message}`));
      expect(linking).toThrow(expect.objectContaining({ code: 'BACKUPSTATS_INVALID_OPTION' }));
    });
  }

  it('accepts the limits, with one place per worker and the default of 256 scopes', () => {
    const s = stats();
    expect(fields(s.workerLink({ workers: 1024, maxScopes: 2 })).places).toHaveLength(1024);
    expect(s.workerLink({ workers: 1, maxScopes: 65_536 })).toMatchObject({ maxScopes: 65_536 });
    expect(s.workerLink()).toMatchObject({ backupstatsWorkerLink: 1, maxScopes: 256, histogramBoundaries: undefined });
    expect(fields(s.workerLink()).places).toHaveLength(1);
    expect(fields(s.workerLink({})).control).toBeInstanceOf(SharedArrayBuffer);
  });
});
