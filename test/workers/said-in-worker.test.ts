// The warning a worker thread gives once (startRun() there records nothing) reaches stderr when no diag logger is
// set: the worker's own diag has no logger, so nobody would see it there.
import { fileURLToPath } from 'node:url';
import { describe } from 'vitest';
import { it } from '../support/fixtures.js';

const fixture = fileURLToPath(new URL('../fixtures/worker-run-job.mjs', import.meta.url));

describe('startRun() in a worker thread, no diag logger set', () => {
  it('is reported once on stderr', async ({ expect, startFixture }) => {
    const child = startFixture(fixture, {});
    expect(await child.exited(20_000), child.stderr()).toEqual({ code: 0, signal: null });
    expect(child.stdout()).toContain('"done"');
    expect(child.stderr().match(/startRun\(\) in a worker thread records nothing/g) ?? [], child.stderr()).toHaveLength(
      1,
    );
  });
});
