// Every benchmark briefly (`bench --quick`): it fails only when a benchmark crashes, never on a timing, which
// belongs in the benchmark's own output. It runs the bench package's own script, since `pnpm bench` would
// rebuild the library under the other tests.
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { runScript, workspaceRoot } from '../support/command.js';

// Every benchmark, each for a moment, with its servers: about 20 s of CPU alone (most of it starting processes:
// tsx, the demo tool, Azurite), and the slowest files of the other tiers start beside it on two cores, so it can
// take several times that. The quick demo runs start the examples' compiled tool, which the build makes.
it('every benchmark runs to its end (bench --quick)', { timeout: 600_000 }, async () => {
  const { code, output } = await runScript('bench', ['--quick'], join(workspaceRoot, 'packages', 'bench'));
  expect(code, output).toBe(0);
});
