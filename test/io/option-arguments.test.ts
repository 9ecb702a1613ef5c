// The options of the metering functions are checked at the call, before any stream is wrapped or any operation runs:
// a TypeError in the one form of the library's errors, naming the function, the option, what it got and what it
// accepts, whole.
import { PassThrough } from 'node:stream';
import { meterIterable, meterReadable, meterTransform, meterWritable, timeAsync, timeSync } from 'backupstats';
import { createRecordingStats } from 'backupstats/testing';
import { describe, expect, it, vi } from 'vitest';

const stats = () => createRecordingStats();
const TIME_ONE_IN_ACCEPTED = 'accepted: an integer from 1 to 65536 (operations per timed operation)';

describe('options that are not an object', () => {
  it.each([
    ['meterReadable', '16', () => meterReadable(new PassThrough(), stats(), 16 as never), '{ timeOneIn: 16 }'],
    ['meterWritable', '"x"', () => meterWritable(new PassThrough(), stats(), 'x' as never), '{ timeOneIn: 16 }'],
    [
      'meterTransform',
      'null',
      () => meterTransform(new PassThrough(), stats(), null as never),
      '{ timeOneIn: 16, flush: stats }',
    ],
    ['meterIterable', 'true', () => meterIterable([], stats(), true as never), '{ timeOneIn: 16 }'],
  ] as const)('%s options of %s throws, with an example of its options', (name, shown, call, example) => {
    expect(call).toThrow(
      new TypeError(`backupstats: ${name} options is ${shown}; accepted: an object such as ${example}, or nothing`),
    );
  });

  it.each([
    ['timeSync', (operation: () => number) => timeSync(stats(), operation, 4096 as never)],
    ['timeAsync', (operation: () => number) => timeAsync(stats(), operation, 4096 as never)],
  ] as const)('%s options of 4096 throws before the operation runs, with an example of its options', (name, call) => {
    const operation = vi.fn(() => 1);
    expect(() => call(operation)).toThrow(
      new TypeError(`backupstats: ${name} options is 4096; accepted: an object such as { bytes: 4096 }, or nothing`),
    );
    expect(operation).not.toHaveBeenCalled();
  });
});

describe('an option of the wrong kind', () => {
  it.each([
    ['meterReadable', () => meterReadable(new PassThrough(), stats(), { timeOneIn: 0 })],
    ['meterWritable', () => meterWritable(new PassThrough(), stats(), { timeOneIn: 0 })],
    ['meterTransform', () => meterTransform(new PassThrough(), stats(), { timeOneIn: 0 })],
    ['meterIterable', () => meterIterable([], stats(), { timeOneIn: 0 })],
  ] as const)('%s option timeOneIn of 0 throws, naming the meter', (name, call) => {
    expect(call).toThrow(new TypeError(`backupstats: ${name} option timeOneIn is 0; ${TIME_ONE_IN_ACCEPTED}`));
  });

  it('meterTransform refuses a flush option that is not a Stats, and meters nothing', () => {
    const stream = new PassThrough();
    expect(() => meterTransform(stream, stats(), { flush: {} as never })).toThrow(
      new TypeError(
        'backupstats: meterTransform option flush is an object; accepted: a Stats, such as backupStats.backup or ' +
          'one of its scopes',
      ),
    );
    // The refused call left the stream as it was: it can still be metered.
    expect(() => meterTransform(stream, stats())).not.toThrow();
  });

  it.each([
    ['timeSync', (operation: () => number, given: object) => timeSync(stats(), operation, given as never)],
    ['timeAsync', (operation: () => number, given: object) => timeAsync(stats(), operation, given as never)],
  ] as const)('%s with an option it does not know (a typo) throws before the operation runs', (name, call) => {
    const operation = vi.fn(() => 1);
    expect(() => call(operation, { recordFailure: true })).toThrow(
      new TypeError(
        `backupstats: ${name} option "recordFailure" is not an option (did you mean "recordFailures"?); accepted: "recordFailures" or "bytes"`,
      ),
    );
    expect(operation).not.toHaveBeenCalled();
    expect(() => call(operation, { recordFailures: true, bytes: 5 })).not.toThrow();
  });

  it.each([
    ['timeSync', (operation: () => number, bytes: unknown) => timeSync(stats(), operation, { bytes } as never)],
    ['timeAsync', (operation: () => number, bytes: unknown) => timeAsync(stats(), operation, { bytes } as never)],
  ] as const)(
    '%s option bytes that is neither a number nor a function throws before the operation runs',
    (name, call) => {
      const operation = vi.fn(() => 1);
      for (const [bytes, shown] of [
        ['4096', '"4096"'],
        [null, 'null'],
        [{ size: 1 }, 'an object'],
      ] as const) {
        expect(() => call(operation, bytes)).toThrow(
          new TypeError(
            `backupstats: ${name} option bytes is ${shown}; accepted: a number, or a function that reads the bytes ` +
              'from the result',
          ),
        );
      }
      expect(operation).not.toHaveBeenCalled();
    },
  );
});
