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
  readonly memory: SharedArrayBuffer | undefined;
  readonly places: number;
  readonly maxScopes: number;
  readonly histogramBoundaries: readonly number[] | undefined;
}
const fields = (link: WorkerLink): Fields => link as unknown as Fields;

const ACCEPTED =
  'accepted: the value stats.workerLink() returned on the main thread, passed in workerData or postMessage';
const refusal = (shown: string, problem: string): string =>
  `backupstats: connectBackupStats link is ${shown} (${problem}); ${ACCEPTED}`;

/** Options of stats that keep histograms with two explicit boundaries, or none. */
const withHistograms = (histograms: boolean) =>
  histograms ? { histogramProducers: [createHistogramProducer()], histogramBoundaries: [0.001, 1] } : {};

/** A link of real stats, with histograms or without, shut down when the test ends. */
function realLink(histograms: boolean, maxScopes = 4, workers = 1): WorkerLink & Fields {
  const stats = createBackupStats(withHistograms(histograms));
  onTestFinished(() => stats.shutdown());
  return stats.workerLink({ maxScopes, workers }) as WorkerLink & Fields;
}

describe('connectBackupStats refuses what is not a link', () => {
  const link = (): WorkerLink & Fields => realLink(true);
  /** Memory of the places' size that is not shared. */
  const unshared = (): ArrayBuffer => new ArrayBuffer((link().memory as SharedArrayBuffer).byteLength);
  const two = (): WorkerLink & Fields => realLink(true, 4, 2);
  const notLink = 'not a link';
  const memory = "its places' memory is not a SharedArrayBuffer";
  const scopes = 'its maxScopes is not one workerLink() gives';
  const size = (places: number): string =>
    `its memory does not fit its ${places} place(s) of its maxScopes and boundaries`;
  const cases: [string, () => unknown, string, string][] = [
    ['undefined', () => undefined, 'undefined', notLink],
    ['null', () => null, 'null', notLink],
    ['a number', () => 1, '1', notLink],
    ['a string', () => 'link', '"link"', notLink],
    ['an array', () => [], 'an instance of Array', notLink],
    ['a function carrying a link', () => Object.assign(() => {}, link()), 'a function', notLink],
    ['no mark', () => ({ ...link(), backupstatsWorkerLink: undefined }), 'an object', notLink],
    ['another mark', () => ({ ...link(), backupstatsWorkerLink: 2 }), 'an object', notLink],
    ['no memory', () => ({ ...link(), memory: undefined }), 'an object', memory],
    ['memory that is not shared', () => ({ ...link(), memory: unshared() }), 'an object', memory],
    [
      'memory that is an array of buffers',
      () => ({ ...two(), memory: [link().memory, link().memory] }),
      'an object',
      memory,
    ],
    ['maxScopes missing', () => ({ ...link(), maxScopes: undefined }), 'an object', scopes],
    ['maxScopes below 2', () => ({ ...link(), maxScopes: 1 }), 'an object', scopes],
    ['maxScopes above 65536', () => ({ ...link(), maxScopes: 65_537 }), 'an object', scopes],
    ['maxScopes not an integer', () => ({ ...link(), maxScopes: 4.5 }), 'an object', scopes],
    [
      'boundaries that are no array',
      () => ({ ...link(), histogramBoundaries: 0.5 }),
      'an object',
      'its histogram boundaries: not an array',
    ],
    [
      'a boundary that is no number',
      () => ({ ...link(), histogramBoundaries: [0.001, '1'] }),
      'an object',
      'its histogram boundaries: boundary 2 is "1", not a finite number above 0',
    ],
    [
      'places but no control',
      () => ({ ...link(), control: undefined }),
      'an object',
      'it has places but no control buffer',
    ],
    [
      'a control that is not shared',
      () => ({ ...link(), control: new ArrayBuffer(20) }),
      'an object',
      'its control buffer is not a SharedArrayBuffer',
    ],
    [
      'a control and no places',
      () => ({ ...link(), places: 0 }),
      'an object',
      'its number of places is not one workerLink() gives',
    ],
    [
      'places that are no number',
      () => ({ ...link(), places: [link().memory] }),
      'an object',
      'its number of places is not one workerLink() gives',
    ],
    [
      'a control for fewer places',
      () => ({ ...link(), places: 2 }),
      'an object',
      'its control buffer does not fit its 2 place(s)',
    ],
    ['memory for one place of two', () => ({ ...two(), memory: link().memory }), 'an object', size(2)],
    ['memory for two places of one', () => ({ ...link(), memory: two().memory }), 'an object', size(1)],
    ['memory of places of more scopes', () => ({ ...link(), memory: realLink(true, 5).memory }), 'an object', size(1)],
    ['memory sized for no histograms', () => ({ ...link(), memory: realLink(false).memory }), 'an object', size(1)],
    ['boundaries another link has', () => ({ ...link(), histogramBoundaries: [0.001, 0.01, 1] }), 'an object', size(1)],
    [
      'no control and no memory, but places',
      () => ({ ...link(), control: undefined, memory: undefined }),
      'an object',
      'it has places but no control buffer',
    ],
    [
      'no control and no places, but memory',
      () => ({ ...link(), control: undefined, places: 0 }),
      'an object',
      'it has places but no control buffer',
    ],
  ];
  for (const [what, value, shown, problem] of cases) {
    it(what, () => {
      const connecting = () => connectBackupStats(value() as WorkerLink);
      expect(connecting).toThrow(new TypeError(refusal(shown, problem)));
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

  it('a link of stats that record nothing: no control buffer, no memory, no places', () => {
    const disabled: WorkerLink & Fields = {
      backupstatsWorkerLink: 1,
      control: undefined,
      memory: undefined,
      places: 0,
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

  it('accepts the limits, with one place per worker, and defaults of 128 places and 256 scopes', () => {
    const s = stats();
    expect(fields(s.workerLink({ workers: 1024, maxScopes: 2 })).places).toBe(1024);
    expect(s.workerLink({ workers: 1, maxScopes: 65_536 })).toMatchObject({ maxScopes: 65_536 });
    expect(s.workerLink()).toMatchObject({ backupstatsWorkerLink: 1, maxScopes: 256, histogramBoundaries: undefined });
    expect(fields(s.workerLink()).places).toBe(128);
    expect(fields(s.workerLink({})).control).toBeInstanceOf(SharedArrayBuffer);
  });
});
