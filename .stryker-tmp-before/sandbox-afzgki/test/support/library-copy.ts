// @ts-nocheck
import { existsSync } from 'node:fs';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** A folder holding a copy of the built library in its node_modules, as an application installs it. */
export interface LibraryCopy {
  readonly dir: string;
  remove(): Promise<void>;
}

/**
 * Copies the built library (package.json and dist) into `<packageDir>/.run-XXXX/node_modules/backupstats`, with
 * the given test fixtures next to it. Node then resolves the library's peers (`@opentelemetry/api`, the SDK) from
 * `packageDir`'s node_modules, which a pnpm workspace link would not do: Node resolves from the link's real
 * path, packages/processor, whose devDependencies are the workspace's versions.
 */
export async function copyLibraryInto(packageDir: string, fixtures: readonly string[]): Promise<LibraryCopy> {
  const dist = join(root, 'packages', 'processor', 'dist');
  if (!existsSync(join(dist, 'setup'))) throw new Error(`the library is not built (${dist}): run the build first`);
  const dir = await mkdtemp(join(packageDir, '.run-'));
  const installed = join(dir, 'node_modules', 'backupstats');
  await cp(join(root, 'packages', 'processor', 'package.json'), join(installed, 'package.json'));
  await cp(dist, join(installed, 'dist'), { recursive: true });
  for (const file of fixtures) await cp(join(root, 'test', 'fixtures', file), join(dir, file));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}
