// A package folder copied for `npm pack`, without its node_modules. npm pack loads the whole dependency tree under
// the folder it packs (to find bundled dependencies; the packages have none): in this pnpm workspace, whose
// node_modules link the packages' dependencies and theirs, that is more than half of a pack's CPU. The copy's
// tarball is byte for byte the package's (same integrity), since npm never packs node_modules unbundled.
import { cpSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

/**
 * Copies every entry of `dir` but node_modules and the tests' temporary `.run-*` copies (git-ignored) into a new
 * folder of the system's temporary folder, and returns its path; the caller removes it.
 */
export function copyForPacking(dir) {
  const copy = mkdtempSync(join(tmpdir(), `${basename(dir)}-pack-`));
  for (const entry of readdirSync(dir)) {
    if (entry === 'node_modules' || entry.startsWith('.run-')) continue;
    cpSync(join(dir, entry), join(copy, entry), { recursive: true });
  }
  return copy;
}
