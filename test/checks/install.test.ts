// scripts/check-install.mjs: the packed library installed into fresh applications with the README's commands, on
// both OpenTelemetry lines (SDK 3.x on Node 22, SDK 2.x on Node 20), its examples run there and exporting exactly.
import { registryEnv } from '@backupstats/testkit/node-process';
import { expect, it } from 'vitest';
import { runCommand } from '../support/command.js';

// Two npm installs from the registry and the examples run on both lines: minutes, not seconds.
it('the packed library installs and runs as the README says, on both OpenTelemetry lines', {
  timeout: 480_000,
}, async () => {
  const { code, output } = await runCommand([process.execPath, 'scripts/check-install.mjs'], { env: registryEnv() });
  expect(code, output).toBe(0);
});
