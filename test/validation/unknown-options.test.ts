// A misspelt option does nothing: every options object of the public API refuses an option it does not know with a
// TypeError (BACKUPSTATS_INVALID_OPTION) naming the function, the option, the closest known option and every known
// one, before anything is made.
import { Readable, Transform, Writable } from 'node:stream';
import {
  createBackupStats,
  createHistogramProducer,
  meterIterable,
  meterReadable,
  meterTransform,
  meterWritable,
  timeAsync,
  timeSync,
  trackRun,
} from 'backupstats';
import { createPushgatewayExporter } from 'backupstats/pushgateway';
import { shutdownOnExit, startBackupStats } from 'backupstats/setup';
import { createTextfileExporter } from 'backupstats/textfile';
import { describe, expect, onTestFinished } from 'vitest';
import { it } from '../support/fixtures.js';

const stats = () => {
  const created = createBackupStats();
  onTestFinished(() => created.shutdown());
  return created;
};

/** The message of a refused option `name` of `fn`, with `closest` suggested and `known` listed. */
const refusal = (fn: string, name: string, closest: string, known: readonly string[]) =>
  `backupstats: ${fn} option ${JSON.stringify(name)} is not an option (did you mean ${JSON.stringify(closest)}?); accepted: ${known
    .map((k) => JSON.stringify(k))
    .join(', ')
    .replace(/, ([^,]*)$/, ' or $1')}`;

const CORE = [
  'meterProvider',
  'flushIntervalMillis',
  'naming',
  'metricPrefix',
  'maxScopes',
  'histograms',
  'histogramBoundaries',
  'histogramProducers',
  'quiet',
];
const RUN = ['expectedBytes', 'progressOperation'];

describe('an option no function knows', () => {
  it.for([
    [
      'createBackupStats',
      'flushInterval',
      'flushIntervalMillis',
      CORE,
      () => createBackupStats({ flushInterval: 5 } as never),
    ],
    ['startRun', 'expectedbytes', 'expectedBytes', RUN, () => stats().backup.startRun({ expectedbytes: 10 } as never)],
    [
      'trackRun',
      'expectedbytes',
      'expectedBytes',
      ['bytes', 'storedBytes', 'partial', 'reason', 'expectedBytes', 'progressOperation'],
      () => trackRun(stats().backup, () => 1, { expectedbytes: 10 } as never),
    ],
    ['workerLink', 'worker', 'workers', ['workers', 'maxScopes'], () => stats().workerLink({ worker: 2 } as never)],
    [
      'createHistogramProducer',
      'agregation',
      'aggregation',
      ['aggregation', 'temporality'],
      () => createHistogramProducer({ agregation: 'exponential' } as never),
    ],
    [
      'meterReadable',
      'timeOnein',
      'timeOneIn',
      ['timeOneIn'],
      () => meterReadable(new Readable(), stats().backup, { timeOnein: 1 } as never),
    ],
    [
      'meterWritable',
      'timeOnein',
      'timeOneIn',
      ['timeOneIn'],
      () => meterWritable(new Writable(), stats().backup, { timeOnein: 1 } as never),
    ],
    [
      'meterTransform',
      'flsh',
      'flush',
      ['timeOneIn', 'flush'],
      () => meterTransform(new Transform(), stats().backup, { flsh: stats().backup } as never),
    ],
    [
      'meterIterable',
      'timeonein',
      'timeOneIn',
      ['timeOneIn'],
      () => meterIterable([], stats().backup, { timeonein: 1 } as never),
    ],
    [
      'timeSync',
      'recordFailure',
      'recordFailures',
      ['recordFailures', 'bytes'],
      () => timeSync(stats().backup, () => 1, { recordFailure: true } as never),
    ],
    [
      'createPushgatewayExporter',
      'jobName',
      'job',
      ['url', 'job', 'instance', 'grouping', 'headers', 'timeoutMillis'],
      () => createPushgatewayExporter({ url: 'http://127.0.0.1:9', jobName: 'x' } as never),
    ],
    [
      'createTextfileExporter',
      'paht',
      'path',
      ['path'],
      () => createTextfileExporter({ paht: '/tmp/x.prom' } as never),
    ],
    [
      'shutdownOnExit',
      'signal',
      'signals',
      ['signals', 'timeoutMillis'],
      () => shutdownOnExit(stats(), { signal: ['SIGTERM'] } as never),
    ],
  ] as const)('%s: a TypeError naming %s and the closest known option', ([fn, name, closest, known, call]) => {
    let thrown: unknown;
    try {
      call();
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(TypeError);
    expect(thrown).toMatchObject({ code: 'BACKUPSTATS_INVALID_OPTION', message: refusal(fn, name, closest, known) });
  });

  it('startBackupStats: rejects, naming the closest of its own and the core options', async () => {
    await expect(startBackupStats({ exporters: ['console'] } as never)).rejects.toMatchObject({
      code: 'BACKUPSTATS_INVALID_OPTION',
      message: expect.stringMatching(
        /^backupstats: startBackupStats option "exporters" is not an option \(did you mean "readers"\?\); accepted: "meterProvider", .* or "readers"$/,
      ),
    });
  });

  it('timeAsync: throws at the call, before the operation runs', () => {
    let ran = false;
    const operation = async () => {
      ran = true;
    };
    expect(() => timeAsync(stats().backup, operation, { byte: 1 } as never)).toThrow(
      refusal('timeAsync', 'byte', 'bytes', ['recordFailures', 'bytes']),
    );
    expect(ran).toBe(false);
  });

  it('a name cut at 64 characters; the first unknown option of several named', () => {
    expect(() => createBackupStats({ nameing: 'otel', [`${'x'.repeat(64)}yz`]: 1 } as never)).toThrow(
      refusal('createBackupStats', 'nameing', 'naming', CORE),
    );
    expect(() => createBackupStats({ [`quiet${'x'.repeat(64)}`]: 1 } as never)).toThrow(
      refusal('createBackupStats', `quiet${'x'.repeat(59)}`, 'quiet', CORE),
    );
  });

  it('the closest option found by the first 64 characters; of two as close, the first known', () => {
    const link = (options: object) => () => stats().workerLink(options as never);
    // Nine edits from "workers" and from "maxScopes" alike.
    expect(link({ zzzzzzzzz: 1 })).toThrow(refusal('workerLink', 'zzzzzzzzz', 'workers', ['workers', 'maxScopes']));
    // Whole, the name is closest to "maxScopes"; its first 64 characters are as close to both.
    expect(link({ [`${'z'.repeat(64)}maxScopes`]: 1 })).toThrow(
      refusal('workerLink', 'z'.repeat(64), 'workers', ['workers', 'maxScopes']),
    );
  });
});
