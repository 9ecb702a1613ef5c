// `npx -y pnpm@10.34.9 demo` prints no warning the user did not cause, on Node 20 and on Node 22 (on Node 20 the
// AWS SDK's 8-line NodeVersionSupportWarning must not land in the demo's progress). The demo as
// the README runs it: the default S3 storage (an s3rver the demo starts), progress on, with no AWS_* variable set.
// Through tsx, as `pnpm demo` runs it, not the compiled tool the other tests run: a warning tsx's loader causes is
// one the user sees.

import { describe, expect, it } from 'vitest';
import { runCli } from '../../packages/examples/test-support/run-cli.js';
import { requireE2E } from '../support/prometheus.js';
import { haveNode22, node22 } from '../support/sdk3-install.js';

const RUNTIMES = [
  ['Node 20 (the one running the tests)', process.execPath],
  ['Node 22', node22],
] as const;

describe('the demo, as the README runs it', () => {
  for (const [name, node] of RUNTIMES) {
    it.skipIf(node === node22 && !haveNode22 && !requireE2E)(
      `${name}: exits 0 and prints no warning`,
      async () => {
        const result = await runCli(['--size', '2MiB', '--files', '8'], { node, timeoutMs: 120_000, viaTsx: true });
        expect(result.code, result.stderr).toBe(0);
        expect(`${result.stdout}\n${result.stderr}`).not.toMatch(/warn|deprecat/i);
      },
      150_000,
    );
  }
});
