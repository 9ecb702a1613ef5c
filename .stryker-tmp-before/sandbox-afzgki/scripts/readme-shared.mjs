// @ts-nocheck
// The front README.md carries the user sections of packages/processor/README.md (the package's README on npm, their
// one source): each `<!-- shared:NAME -->` … `<!-- /shared:NAME -->` block of the package README stands in the
// front README too, its links into this repository on GitHub made relative. `node scripts/readme-shared.mjs`
// rewrites the front README's blocks; the docs tests fail while they differ (`expectedFrontReadme`).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPOSITORY = 'https://github.com/backupstats/backupstats/blob/main/';
const BLOCK = /<!-- shared:([\w-]+) -->\n[\s\S]*?<!-- \/shared:\1 -->/g;

/** The front README as it must be: its own text, with every shared block as the package README has it. */
export function expectedFrontReadme(root) {
  const source = readFileSync(join(root, 'packages/processor/README.md'), 'utf8');
  const blocks = new Map([...source.matchAll(BLOCK)].map((match) => [match[1], match[0]]));
  const front = readFileSync(join(root, 'README.md'), 'utf8');
  return front.replace(BLOCK, (_whole, name) => {
    const block = blocks.get(name);
    if (block === undefined)
      throw new Error(`README.md has a shared block "${name}" that packages/processor/README.md lacks`);
    return block.replaceAll(`](${REPOSITORY}`, '](');
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = join(import.meta.dirname, '..');
  writeFileSync(join(root, 'README.md'), expectedFrontReadme(root));
  console.log('README.md: shared blocks copied from packages/processor/README.md');
}
