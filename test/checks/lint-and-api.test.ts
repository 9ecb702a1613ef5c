// The linter, and the API reference's validation: every public symbol documented, every {@link} resolved.
import { expect, it } from 'vitest';
import { runScript } from '../support/command.js';

// Biome alone takes seconds; it starts with the suite's slowest files, which can starve it of the CPU for a while.
it('pnpm lint passes', { timeout: 120_000 }, async () => {
  const { code, output } = await runScript('lint');
  expect(code, output).toBe(0);
});

// TypeDoc reads every entry point with the TypeScript compiler: tens of seconds.
it('pnpm docs:api:check passes: every public symbol documented, every link resolved', {
  timeout: 120_000,
}, async () => {
  const { code, output } = await runScript('docs:api:check');
  expect(code, output).toBe(0);
});
