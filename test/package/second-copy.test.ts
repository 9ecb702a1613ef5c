// Two copies of the library in one process (an application's ESM import beside a dependency's CommonJS require, the
// dual-package hazard): a stream one copy metered is refused by the other. It needs both builds, so it is here and
// not in the unit tier, which runs against the TypeScript source.
import { createRequire } from 'node:module';
import { PassThrough } from 'node:stream';
import { meterReadable, meterWritable } from 'backupstats';
import { createRecordingStats } from 'backupstats/testing';
import { expect, it } from 'vitest';

const stats = () => createRecordingStats();

const meteredAlready = (name: string, side: 'reading' | 'writing'): TypeError =>
  new TypeError(
    `backupstats: ${name} stream is an instance of PassThrough (it is metered already: metering it again would ` +
      `count every chunk twice); accepted: a stream whose ${side} side is not metered yet`,
  );

it('a stream metered by another copy of the library in the process (its CommonJS build) is refused too', () => {
  const other = createRequire(import.meta.url)('backupstats') as typeof import('backupstats');
  expect(other.meterReadable).not.toBe(meterReadable);
  const read = other.meterReadable(new PassThrough(), stats());
  expect(() => meterReadable(read, stats())).toThrow(meteredAlready('meterReadable', 'reading'));
  const written = meterWritable(new PassThrough(), stats());
  expect(() => other.meterTransform(written, stats())).toThrow(meteredAlready('meterTransform', 'writing'));
});
