// A measurement dropped as invalid is reported once, and must be seen without configuring anything: with no diag
// logger set it goes to stderr, as a failed final export does (diag without a logger would hide that bytes were
// lost). `quiet` / BACKUPSTATS_QUIET silences it; with OTEL_LOG_LEVEL it goes through the console logger set-up
// installs.
import { fileURLToPath } from 'node:url';
import { describe } from 'vitest';
import { it } from '../support/fixtures.js';

const fixture = fileURLToPath(new URL('../fixtures/dropped-job.mjs', import.meta.url));
const DROPPED = /backupstats: dropped an invalid backup measurement/g;
const HANG_MS = 20_000;

describe.concurrent('two measurements dropped, with no diag logger set', () => {
  const cases = [
    ['set-up, nothing set: reported once on stderr', {}, 1],
    ['set-up, BACKUPSTATS_QUIET=true: not said', { BACKUPSTATS_QUIET: 'true' }, 0],
    ['set-up, OTEL_LOG_LEVEL=warn: reported once, through the console logger', { OTEL_LOG_LEVEL: 'warn' }, 1],
    ['set-up, OTEL_LOG_LEVEL=error: not said (below the level the user chose)', { OTEL_LOG_LEVEL: 'error' }, 0],
    ['the core alone: reported once on stderr', { BACKUPSTATS_CORE: '1' }, 1],
    ['the core alone, quiet: true: not said', { BACKUPSTATS_CORE: '1', BACKUPSTATS_QUIET: 'true' }, 0],
  ] as const;
  for (const [name, extra, times] of cases) {
    it(name, async ({ expect, startFixture }) => {
      const child = startFixture(fixture, { OTEL_METRICS_EXPORTER: 'none', ...extra });
      expect(await child.exited(HANG_MS), child.stderr()).toEqual({ code: 0, signal: null });
      expect(child.stdout()).toContain('"done"');
      expect(child.stderr().match(DROPPED) ?? [], child.stderr()).toHaveLength(times);
    });
  }
});
