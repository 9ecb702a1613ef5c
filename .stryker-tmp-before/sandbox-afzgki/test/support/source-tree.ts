// @ts-nocheck
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** A source folder `name` in `parent` with three files, a.txt, b.txt and c.txt, 40 000 bytes each, readable by all. */
export async function sourceTree(parent: string, name: string): Promise<string> {
  const source = join(parent, name);
  await mkdir(source, { mode: 0o755 });
  await chmod(source, 0o755);
  for (const file of ['a.txt', 'b.txt', 'c.txt'])
    await writeFile(join(source, file), `${file}\n`.repeat(6_000), { mode: 0o644 });
  return source;
}
