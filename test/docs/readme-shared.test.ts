import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a script of the workspace, plain JavaScript without declarations
import { expectedFrontReadme } from '../../scripts/readme-shared.mjs';

// The front README's user sections are the package README's, written once: this fails when one was edited
// without the other.
const root = fileURLToPath(new URL('../..', import.meta.url));

describe('README.md and packages/processor/README.md', () => {
  it('share every shared block word for word (run node scripts/readme-shared.mjs after editing the package README)', () => {
    const front = readFileSync(join(root, 'README.md'), 'utf8');
    expect(front).toContain('<!-- shared:install -->');
    expect(front).toBe((expectedFrontReadme as (root: string) => string)(root));
  });
});
