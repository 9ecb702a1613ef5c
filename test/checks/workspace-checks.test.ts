// The workspace's own checks, so that the README's test command runs everything CI checks: the type check (every
// package, the tests, and the ts blocks of the docs), the linter, and the API reference's validation (every public
// symbol documented, every {@link} resolved). Each runs the workspace's own script, as a contributor would.
import { expect, it } from 'vitest';
import { PNPM, runCommand } from '../support/command.js';

// tsc over every package and the tests is the slowest check: up to a minute on two busy cores.
it('pnpm typecheck passes: every package, the tests and the docs code blocks', { timeout: 180_000 }, async () => {
  const { code, output } = await runCommand([...PNPM, 'run', 'typecheck']);
  expect(code, output).toBe(0);
});

it('pnpm lint passes', async () => {
  const { code, output } = await runCommand([...PNPM, 'run', 'lint']);
  expect(code, output).toBe(0);
});

// TypeDoc reads every entry point with the TypeScript compiler: tens of seconds.
it('pnpm docs:api:check passes: every public symbol documented, every link resolved', {
  timeout: 120_000,
}, async () => {
  const { code, output } = await runCommand([...PNPM, 'run', 'docs:api:check']);
  expect(code, output).toBe(0);
});
