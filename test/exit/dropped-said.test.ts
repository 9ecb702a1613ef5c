// A measurement dropped as invalid is reported once, and must be seen without configuring anything: with no diag
// logger set it goes to stderr, as a failed final export does (diag without a logger would hide that bytes were
// lost). `quiet` / BACKUPSTATS_QUIET silences it; with OTEL_LOG_LEVEL it goes through the console logger set-up
// installs.
//
// One child process runs every case in turn, each on stats of its own and with its variables in process.env only
// while it runs: the message is said once per stats instance, so a case's count is its own, and the child says on
// stderr where each case starts. The cases with no diag logger come first; a case that sets OTEL_LOG_LEVEL leaves a
// global console logger, which the child removes before the next case.
import { fileURLToPath } from 'node:url';
import { afterAll, describe } from 'vitest';
import { type FixtureProcess, startFixture } from '../support/child.js';
import { it } from '../support/fixtures.js';

const fixture = fileURLToPath(new URL('../fixtures/dropped-job.mjs', import.meta.url));
const DROPPED = /backupstats: dropped an invalid backup measurement/g;
const HANG_MS = 20_000;

/** Name, the variables of the case, and how many times the message must be on the case's stderr. */
const CASES = [
  ['the core alone: reported once on stderr', { BACKUPSTATS_CORE: '1' }, 1],
  ['the core alone, quiet: true: not said', { BACKUPSTATS_CORE: '1', BACKUPSTATS_QUIET: 'true' }, 0],
  ['set-up, nothing set: reported once on stderr', {}, 1],
  ['set-up, BACKUPSTATS_QUIET=true: not said', { BACKUPSTATS_QUIET: 'true' }, 0],
  ['set-up, OTEL_LOG_LEVEL=error: not said (below the level the user chose)', { OTEL_LOG_LEVEL: 'error' }, 0],
  ['set-up, OTEL_LOG_LEVEL=warn: reported once, through the console logger', { OTEL_LOG_LEVEL: 'warn' }, 1],
] as const;

let job: FixtureProcess | undefined;
/** The one child that runs every case, started by the first test that asks. */
function casesJob(): FixtureProcess {
  job ??= startFixture(fixture, {
    OTEL_METRICS_EXPORTER: 'none',
    FIXTURE_CASES: JSON.stringify(CASES.map(([name, env]) => ({ name, env }))),
  });
  return job;
}
afterAll(() => job?.kill());

/** What the child wrote on stderr while it ran the case `name`. */
function stderrOf(child: FixtureProcess, name: string): string {
  const marker = `--- case ${name}\n`;
  const start = child.stderr().indexOf(marker);
  if (start === -1) return '';
  const rest = child.stderr().slice(start + marker.length);
  const end = rest.indexOf('--- case ');
  return end === -1 ? rest : rest.slice(0, end);
}

describe.concurrent('two measurements dropped, with no diag logger set', () => {
  for (const [name, , times] of CASES) {
    it(name, async ({ expect }) => {
      const child = casesJob();
      expect(await child.exited(HANG_MS), child.stderr()).toEqual({ code: 0, signal: null });
      expect(child.stdout()).toContain(JSON.stringify({ event: 'done', case: name }));
      expect(child.stderr()).toContain(`--- case ${name}\n`);
      const own = stderrOf(child, name);
      expect(own.match(DROPPED) ?? [], child.stderr()).toHaveLength(times);
    });
  }
});
