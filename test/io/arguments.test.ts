// Every metering function refuses, at the call, what it cannot meter: a TypeError in the one form of the library's
// errors, naming the function, the argument, what it got and what it accepts.
import { PassThrough, Readable, Transform, Writable } from 'node:stream';
import {
  meterIterable,
  meterReadable,
  meterTransform,
  meterWritable,
  timeAsync,
  timeSync,
  trackRun,
} from 'backupstats';
import { createRecordingStats } from 'backupstats/testing';
import { describe, expect, it, vi } from 'vitest';

const STATS_ACCEPTED = 'accepted: a Stats, such as backupStats.backup or one of its scopes';
const stats = () => createRecordingStats();

/** The whole error of meterReadable for a stream shown as `shown`. */
const notReadable = (shown: string): TypeError =>
  new TypeError(
    `backupstats: meterReadable stream is ${shown} (it has no readable side to meter: no _read() and push() of a ` +
      'stream.Readable); accepted: a stream.Readable (files, sockets, zlib, Readable.from, the readable side of a ' +
      'Duplex or Transform)',
  );

/** The whole error of meterTransform for a stream shown as `shown`. */
const notTransform = (shown: string): TypeError =>
  new TypeError(
    `backupstats: meterTransform stream is ${shown} (it has no _transform() to meter, so it would record nothing); ` +
      'accepted: a stream.Transform (zlib, crypto ciphers and hashes as streams, PassThrough, your own Transform)',
  );

const noop = (): void => {};

describe('streams that cannot be metered', () => {
  it.each([
    ['null', null, 'null'],
    ['a plain object', {}, 'an object'],
    ['a Writable', new Writable(), 'an instance of Writable'],
    ['an object with _read() but no push()', { _read: noop, _readableState: {} }, 'an object'],
    ['an object with push() but no _read()', { push: noop, _readableState: {} }, 'an object'],
    ['an object with _read() and push() but no readable state', { _read: noop, push: noop }, 'an object'],
    ['a readable state of null', { _read: noop, push: noop, _readableState: null }, 'an object'],
    [
      'a function with the parts of a Readable',
      Object.assign(() => {}, { _read: noop, push: noop, _readableState: {} }),
      'a function',
    ],
  ])('meterReadable(%s) throws at the call', (_case, stream, shown) => {
    expect(() => meterReadable(stream as never, stats())).toThrow(notReadable(shown));
  });

  it.each([
    ['a Readable', new Readable({ read() {} }), 'an instance of Readable'],
    ['a Writable', new Writable(), 'an instance of Writable'],
    ['undefined', undefined, 'undefined'],
    ['a Transform-looking object without _writableState', { _transform: noop, _readableState: {} }, 'an object'],
    ['an object with both states but no _transform()', { _writableState: {}, _readableState: {} }, 'an object'],
    ['an object without _readableState', { _transform: noop, _writableState: {} }, 'an object'],
    ['a readable state of null', { _transform: noop, _writableState: {}, _readableState: null }, 'an object'],
    ['a writable state of null', { _transform: noop, _writableState: null, _readableState: {} }, 'an object'],
    [
      'a function with the parts of a Transform',
      Object.assign(() => {}, { _transform: noop, _writableState: {}, _readableState: {} }),
      'a function',
    ],
  ])('meterTransform(%s) throws at the call instead of recording nothing', (_case, stream, shown) => {
    expect(() => meterTransform(stream as never, stats())).toThrow(notTransform(shown));
  });

  it('meterWritable(a Readable) throws at the call', () => {
    expect(() => meterWritable(new Readable() as never, stats())).toThrow(
      /^backupstats: meterWritable stream is an instance of Readable /,
    );
  });

  it('meterIterable refuses what is neither async nor sync iterable, before it iterates', () => {
    for (const [source, shown] of [
      [null, 'null'],
      [undefined, 'undefined'],
      [{}, 'an object'],
      [42, '42'],
    ] as const) {
      expect(() => meterIterable(source as never, stats())).toThrow(
        new TypeError(
          `backupstats: meterIterable source is ${shown}; accepted: an async or sync iterable (a Readable, a ` +
            'generator, an array)',
        ),
      );
    }
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

/** The whole error of a meter given a PassThrough whose `side` it meters already. */
const meteredAlready = (name: string, side: 'reading' | 'writing'): TypeError =>
  new TypeError(
    `backupstats: ${name} stream is an instance of PassThrough (it is metered already: metering it again would ` +
      `count every chunk twice); accepted: a stream whose ${side} side is not metered yet`,
  );

describe('a stream metered twice', () => {
  it.each([
    ['meterReadable', 'reading', (s: PassThrough) => meterReadable(s, stats())],
    ['meterWritable', 'writing', (s: PassThrough) => meterWritable(s, stats())],
    ['meterTransform', 'writing', (s: PassThrough) => meterTransform(s, stats())],
  ] as const)(
    '%s refuses a stream whose %s side it metered already, which would count every chunk twice',
    (name, side, meter) => {
      const stream = new PassThrough();
      meter(stream);
      expect(() => meter(stream)).toThrow(meteredAlready(name, side));
    },
  );

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
