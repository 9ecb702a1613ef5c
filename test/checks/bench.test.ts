// Every benchmark briefly (`bench --quick`): it fails only when a benchmark crashes, never on a timing, which
// belongs in the benchmark's own output. It runs the bench package's script directly, since `pnpm bench` would
// rebuild the library under the other tests.
import { expect, it } from 'vitest';
import { PNPM, runCommand } from '../support/command.js';

// Every benchmark, each for a moment, with its servers: about a minute.
it('every benchmark runs to its end (bench --quick)', { timeout: 300_000 }, async () => {
  const { code, output } = await runCommand([...PNPM, '--filter', '@backupstats/bench', 'run', 'bench', '--quick']);
  expect(code, output).toBe(0);
});
