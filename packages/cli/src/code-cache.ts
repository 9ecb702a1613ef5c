// Loads a bundle of the command's with V8's code cache: the build makes `import('./library.js')` a call of
// requireWithCodeCache('library.cjs') (tsup.config.ts).
import { accessSync, constants, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire, wrap } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';

/**
 * Requires the CommonJS bundle `name` of the command's own folder, compiled with the code cache kept beside it:
 * `.<name>.<V8 version>.cache`, written at the exit of a process that found none V8 accepted, with the code of every
 * function that process compiled. V8 compiles a function when it is first called, so a job that builds stats,
 * exports once and exits compiles much of the library's 650 KB on every start; with the cache it compiles nothing.
 * V8 refuses a cache of another bundle or another V8 build or flags, which is then compiled anew and replaced. A
 * folder this user cannot write (a global install) keeps no cache, and the command runs as without it. The cache
 * is beside the code it stands for, so whoever can change the one can change the other.
 */
export function requireWithCodeCache(name: string): unknown {
  const folder = dirname(fileURLToPath(import.meta.url));
  const file = join(folder, name);
  const cacheFile = join(folder, `.${name}.${process.versions.v8}.cache`);
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  // The bundle's first line is the command's `#!`, which is no JavaScript; the line stays, so lines keep their numbers.
  const source = wrap(readFileSync(file, 'utf8').replace(/^#!.*/, ''));
  const script = new Script(source, { filename: file, cachedData });
  if ((cachedData === undefined || script.cachedDataRejected === true) && writable(folder)) {
    process.once('exit', () => writeCodeCache(script, cacheFile));
  }
  const module = { exports: {} };
  const load = script.runInThisContext() as (...args: unknown[]) => void;
  load.call(module.exports, module.exports, createRequire(file), module, file, folder);
  return module.exports;
}

/** Whether this process may write in `folder`: where it may not, making a cache at every exit would be work lost. */
function writable(folder: string): boolean {
  try {
    accessSync(folder, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** Writes the code cache whole or not at all: a process starting meanwhile reads the old one or none. */
function writeCodeCache(script: Script, cacheFile: string): void {
  const temporary = `${cacheFile}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, script.createCachedData());
    renameSync(temporary, cacheFile);
  } catch {
    rmSync(temporary, { force: true });
  }
}
