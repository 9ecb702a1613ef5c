// Where the library's error texts stop showing a value, pinned at the edge: a value of 120 characters is shown
// whole and one of 121 is cut with its length; an array of 8 items is shown whole and a nested array by its kind;
// the longest progress operation accepted is 64 characters, and an unknown option of timeSync / timeAsync is named
// by its first 64. And a URL's text is redacted only where it holds credentials (before its first path), and
// credentials in a URL are refused only beside an authorization header.
import { createBackupStats, timeAsync, timeSync } from 'backupstats';
import { createPushgatewayExporter } from 'backupstats/pushgateway';
import { noopStats } from 'backupstats/testing';
import { describe, expect, it, onTestFinished } from 'vitest';

const NAMING_ACCEPTED = 'accepted: "otel" or "vitess"';
const BOUNDARIES_ACCEPTED =
  'accepted: 1 to 64 finite numbers of seconds above 0, in increasing order (e.g. [0.001, 0.01, 0.1, 1, 10])';

describe('how much of a value an error shows', () => {
  it('a value of 120 characters is shown whole; one of 121 is cut after 120, with its length', () => {
    // The quotes count: 118 letters are shown as 120 characters.
    const whole = 'n'.repeat(118);
    expect(() => createBackupStats({ naming: whole as never })).toThrow(
      new TypeError(`backupstats: option naming is "${whole}"; ${NAMING_ACCEPTED}`),
    );
    const cut = `"${'n'.repeat(119)}"`;
    expect(() => createBackupStats({ naming: 'n'.repeat(119) as never })).toThrow(
      new TypeError(`backupstats: option naming is ${cut.slice(0, 120)}… (121 characters); ${NAMING_ACCEPTED}`),
    );
  });

  it('an array of 8 items is shown whole, with no count; an array inside it as "an array"', () => {
    expect(() => createBackupStats({ histogramBoundaries: [1, 2, 3, 4, 5, 6, 7, 7] })).toThrow(
      new TypeError(
        `backupstats: option histogramBoundaries is [1, 2, 3, 4, 5, 6, 7, 7] (boundary 8 repeats 7); ${BOUNDARIES_ACCEPTED}`,
      ),
    );
    expect(() => createBackupStats({ histogramBoundaries: [[1]] as never })).toThrow(
      new TypeError(
        `backupstats: option histogramBoundaries is [an array] (boundary 1 is [1], not a finite number above 0); ${BOUNDARIES_ACCEPTED}`,
      ),
    );
  });

  it.for([
    ['timeSync', (given: object) => timeSync(noopStats, () => 1, given as never)],
    ['timeAsync', (given: object) => timeAsync(noopStats, () => 1, given as never)],
  ] as const)('%s names an unknown option by its first 64 characters', ([name, call]) => {
    const option = `${'o'.repeat(64)}${'x'.repeat(36)}`;
    expect(() => call({ [option]: true })).toThrow(
      new TypeError(
        `backupstats: ${name} option "${'o'.repeat(64)}" is not an option (did you mean "recordFailures"?); accepted: "recordFailures" or "bytes"`,
      ),
    );
  });

  it('a progress operation of 64 characters is taken', async () => {
    const stats = createBackupStats({ flushIntervalMillis: 2 ** 30 });
    onTestFinished(() => stats.shutdown());
    const run = stats.backup.startRun({ expectedBytes: 1, progressOperation: 'o'.repeat(64) });
    run.succeed();
  });
});

describe('URLs in errors and their credentials', () => {
  it('a "//" later in the text is not taken for credentials: the text is shown as written', () => {
    expect(() => createPushgatewayExporter({ url: 'pg:9091/a//user@b' })).toThrow(
      /^backupstats: createPushgatewayExporter option url is "pg:9091\/a\/\/user@b"; accepted: /,
    );
  });

  it('an authorization header without credentials in the URL is taken, and so are credentials without one', async () => {
    const withHeader = createPushgatewayExporter({ url: 'http://pg', headers: { authorization: 'Bearer t' } });
    const withCredentials = createPushgatewayExporter({ url: 'http://u:p@pg', headers: { 'x-tenant': 'a' } });
    await Promise.all([withHeader.shutdown(), withCredentials.shutdown()]);
  });
});
