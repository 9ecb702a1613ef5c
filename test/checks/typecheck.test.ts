// `pnpm typecheck`: every package, the tests, and the ts blocks of the README and docs against the build.
import { expect, it } from 'vitest';
import { runScript } from '../support/command.js';

// tsc over every package, the tests and the docs blocks: about a minute alone, several beside the suite on two cores.
it('pnpm typecheck passes: every package, the tests and the docs code blocks', { timeout: 480_000 }, async () => {
  const { code, output } = await runScript('typecheck');
  expect(code, output).toBe(0);
});
