// `pnpm typecheck`: every package, the tests, and the ts blocks of the README and docs against the build.
import { expect, it } from 'vitest';
import { PNPM, runCommand } from '../support/command.js';

// tsc over every package and the tests: up to a minute or two on two cores busy with other test files.
it('pnpm typecheck passes: every package, the tests and the docs code blocks', { timeout: 180_000 }, async () => {
  const { code, output } = await runCommand([...PNPM, 'run', 'typecheck']);
  expect(code, output).toBe(0);
});
