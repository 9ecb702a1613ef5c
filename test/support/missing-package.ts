// What Node.js itself throws when a program loads a package that is not installed, for the tests that make an
// optional peer missing in process (test/validation/*-missing-peer*.test.ts). The workspace has every peer
// installed, so the error is got by really loading the peer's own name from a directory where it is not installed
// (a fresh directory under the system's temporary one): the error is Node's, with its code and its message naming
// the package, and nothing is re-labelled by hand.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished, vi } from 'vitest';

/** Loads packages as a program in `dir` would, with Node's own loaders (not vitest's). */
export interface Importer {
  /** The directory of the program; removed when the test ends. */
  readonly dir: string;
  /** What `import(name)` rejects with there (Node's ESM loader): `ERR_MODULE_NOT_FOUND` for a missing package. */
  importError(name: string): Promise<unknown>;
  /** What `require(name)` throws there (Node's CommonJS loader): `MODULE_NOT_FOUND` for a missing package. */
  requireError(name: string): unknown;
}

/**
 * A program in a fresh directory outside the workspace, where no package is installed (until the test writes one
 * into its node_modules). It is a CommonJS file loaded with Node's own `require`, so that both its `import()` and
 * its `require()` are Node's: a test file's own `import()` would go through vitest's module runner instead.
 */
export function importerOutsideWorkspace(): Importer {
  const dir = mkdtempSync(join(tmpdir(), 'backupstats-not-installed-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'importer.cjs');
  writeFileSync(file, 'exports.load = (name) => import(name);\nexports.need = (name) => require(name);\n');
  const program = createRequire(import.meta.url)(file) as {
    load(name: string): Promise<unknown>;
    need(name: string): unknown;
  };
  return {
    dir,
    async importError(name) {
      try {
        await program.load(name);
      } catch (error) {
        return error;
      }
      throw new Error(`${name} was found from ${dir}`);
    },
    requireError(name) {
      try {
        program.need(name);
      } catch (error) {
        return error;
      }
      throw new Error(`${name} was found from ${dir}`);
    },
  };
}

/**
 * An install of `name` in the importer's node_modules that Node cannot load: its package.json exports no main
 * entry, so `import(name)` fails with Node's `ERR_PACKAGE_PATH_NOT_EXPORTED`, whose message names the package (a
 * broken install, not a missing one).
 */
export function installWithoutMain(importer: Importer, name: string): void {
  const dir = join(importer.dir, 'node_modules', name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name, version: '0.0.0', exports: { './package.json': './package.json' } }),
  );
}

/**
 * An install of `name` in the importer's node_modules whose entry loads `dependency`, which is not installed: what
 * Node then throws has the code of a missing package and names `name` too (in the path of the file that asked), but
 * it is `dependency` that is missing, not `name`. Both loaders: `import(name)` runs index.mjs, `require(name)`
 * index.cjs.
 */
export function installWithMissingDependency(importer: Importer, name: string, dependency: string): void {
  const dir = join(importer.dir, 'node_modules', name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name, version: '0.0.0', exports: { import: './index.mjs', require: './index.cjs' } }),
  );
  writeFileSync(join(dir, 'index.mjs'), `import '${dependency}';\n`);
  writeFileSync(join(dir, 'index.cjs'), `require('${dependency}');\n`);
}

/**
 * Until the test ends, `import(name)` rejects with `error`, exactly that value, wherever the library calls it
 * (vitest's module mocking, confined to the test file: no other file's tests see it).
 *
 * The factory cannot simply throw or reject: vitest wraps that in an Error of its own ("There was an error when
 * mocking a module"), which has neither the code nor the message of what was thrown. It returns a module whose
 * `then` throws instead: what a factory returns is read for `then` (vitest asks whether it is a promise, as does
 * the promise that import() resolves with), and the throw of that read is what import() rejects with, unwrapped.
 * The tests check that the error reached the library as it was (`cause`, `toBe`), so a vitest that wrapped it
 * would fail them rather than let them pass.
 */
export async function rejectImportOf(name: string, error: unknown): Promise<void> {
  vi.doMock(name, () => ({
    // biome-ignore lint/suspicious/noThenProperty: the read of `then` is the point: it makes import() reject.
    get then(): never {
      throw error;
    },
  }));
  onTestFinished(() => {
    vi.doUnmock(name);
  });
  // vitest applies what vi.doMock and vi.doUnmock asked at the next module fetch. Two fetches at once (set-up
  // imports sdk-metrics and resources together) each apply the pending list, and one may go on before the other
  // has applied the mock (or after it applied the previous test's unmock): the package then loaded for real, in
  // every run for resources mocked after a test that loaded it, and now and then for sdk-metrics. One fetch now,
  // alone, applies them before the library imports anything.
  await import('./missing-package.js');
}

/**
 * Makes the process report Node.js `version` (`process.versions.node` and `process.version`) until the test ends:
 * without an SDK's version to go by, the install line names the OpenTelemetry line the running Node.js supports
 * (3.x from 22.15), and a test pinned to a version passes the same on every Node.js it runs on.
 */
export function reportNodeVersion(version: string): void {
  const versions = Object.getOwnPropertyDescriptor(process.versions, 'node');
  const short = Object.getOwnPropertyDescriptor(process, 'version');
  if (versions === undefined || short === undefined) throw new Error('process.versions.node is not a property');
  Object.defineProperty(process.versions, 'node', { ...versions, value: version });
  Object.defineProperty(process, 'version', { ...short, value: `v${version}` });
  onTestFinished(() => {
    Object.defineProperty(process.versions, 'node', versions);
    Object.defineProperty(process, 'version', short);
  });
}
