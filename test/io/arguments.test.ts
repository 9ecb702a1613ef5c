// Every metering function refuses, at the call, what it cannot meter: a TypeError in the one form of the library's
// errors, naming the function, the argument, what it got and what it accepts (issue 23, items 7 to 9).
import { PassThrough, Readable, Transform, Writable } from 'node:stream';
import {
  createRecordingStats,
  meterIterable,
  meterReadable,
  meterTransform,
  meterWritable,
  timeAsync,
  timeSync,
  trackRun,
} from 'backupstats';
import { describe, expect, it, vi } from 'vitest';

const STATS_ACCEPTED = 'accepted: a Stats, such as backupStats.backup or one of its scopes';
const stats = () => createRecordingStats();

describe('streams that cannot be metered', () => {
  it.each([
    ['null', null, 'null'],
    ['a plain object', {}, 'an object'],
    ['a Writable', new Writable(), 'an instance of Writable'],
  ])('meterReadable(%s) throws at the call', (_case, stream, shown) => {
    expect(() => meterReadable(stream as never, stats())).toThrow(
      new RegExp(`^backupstats: meterReadable stream is ${shown} \\(.*\\); accepted: a stream\\.Readable`),
    );
  });

  it.each([
    ['a Readable', new Readable({ read() {} }), 'an instance of Readable'],
    ['a Writable', new Writable(), 'an instance of Writable'],
    ['undefined', undefined, 'undefined'],
  ])('meterTransform(%s) throws at the call instead of recording nothing', (_case, stream, shown) => {
    expect(() => meterTransform(stream as never, stats())).toThrow(
      new RegExp(`^backupstats: meterTransform stream is ${shown} \\(.*\\); accepted: a stream\\.Transform`),
    );
  });

  it('meterWritable(a Readable) throws at the call', () => {
    expect(() => meterWritable(new Readable() as never, stats())).toThrow(
      /^backupstats: meterWritable stream is an instance of Readable /,
    );
  });
});

describe('what is not a Stats', () => {
  const cases = [
    ['meterReadable', () => meterReadable(new PassThrough(), {} as never)],
    ['meterWritable', () => meterWritable(new PassThrough(), 'stats' as never)],
    ['meterTransform', () => meterTransform(new PassThrough(), null as never)],
    ['meterIterable', () => meterIterable([Buffer.from('x')], {} as never)],
  ] as const;
  it.each(cases)('%s throws at the call, not later inside the consumer', (name, call) => {
    expect(call).toThrow(new RegExp(`^backupstats: ${name} stats is .*; ${STATS_ACCEPTED}`));
  });

  it('timeSync checks before it runs the operation, so its result is never lost', () => {
    const operation = vi.fn(() => 42);
    expect(() => timeSync({} as never, operation)).toThrow(
      new TypeError(`backupstats: timeSync stats is an object; ${STATS_ACCEPTED}`),
    );
    expect(operation).not.toHaveBeenCalled();
  });

  it('timeAsync and trackRun throw at the call, before starting the operation', () => {
    const operation = vi.fn(async () => 42);
    expect(() => timeAsync(undefined as never, operation)).toThrow(/^backupstats: timeAsync stats is undefined;/);
    expect(() => trackRun(5 as never, operation)).toThrow(/^backupstats: trackRun stats is 5;/);
    expect(operation).not.toHaveBeenCalled();
  });

  it('an operation that is not a function is refused too', () => {
    expect(() => timeSync(stats(), 'run' as never)).toThrow(
      /^backupstats: timeSync operation is "run"; accepted: a function/,
    );
  });
});

describe('options that are not an object', () => {
  it.each([
    ['meterReadable', () => meterReadable(new PassThrough(), stats(), 16 as never)],
    ['meterWritable', () => meterWritable(new PassThrough(), stats(), 'x' as never)],
    ['meterTransform', () => meterTransform(new PassThrough(), stats(), null as never)],
  ] as const)('%s throws naming its options', (name, call) => {
    expect(call).toThrow(
      new RegExp(`^backupstats: ${name} options is .*; accepted: an object such as \\{ timeOneIn: 16[,} ]`),
    );
  });
});

describe('a stream metered twice', () => {
  it.each([
    ['meterReadable', (s: PassThrough) => meterReadable(s, stats())],
    ['meterWritable', (s: PassThrough) => meterWritable(s, stats())],
    ['meterTransform', (s: PassThrough) => meterTransform(s, stats())],
  ] as const)('%s refuses a stream it metered already, which would count every chunk twice', (name, meter) => {
    const stream = new PassThrough();
    meter(stream);
    expect(() => meter(stream)).toThrow(
      new RegExp(
        `^backupstats: ${name} stream is an instance of PassThrough \\(it is metered already: metering it again would count every chunk twice\\)`,
      ),
    );
  });

  it('meterWritable and meterTransform are one writing side: the second refuses', () => {
    const stream = new Transform({ transform: (chunk, _encoding, done) => done(null, chunk) });
    meterTransform(stream, stats());
    expect(() => meterWritable(stream, stats())).toThrow(/it is metered already/);
  });

  it('the reading and the writing side of one stream can each be metered once', () => {
    const stream = new PassThrough();
    expect(() => meterReadable(meterTransform(stream, stats()), stats())).not.toThrow();
  });
});
