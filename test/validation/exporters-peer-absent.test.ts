// createPushgatewayExporter and createTextfileExporter when @opentelemetry/exporter-prometheus is not installed at
// all, in process: the factory refuses at once with BACKUPSTATS_MISSING_PEER and the npm install line of the SDK
// line of the installed @opentelemetry/sdk-metrics (read from the package.json above its main file), or of the
// running Node.js without one; an install that resolves but is broken is left to the import, and so is a copy of
// the library that is not the package (an application bundle, with no package.json of the library's near it).
//
// The workspace has every peer installed, so the library resolves packages here as a program in a fresh directory
// outside the workspace would (Node's own resolution, through createRequire there), with what the test installs in
// its node_modules; for a bundle, the library's file is taken to be in such a directory. Both are vitest's module
// mocks of node:module and node:url, confined to this file, with the library loaded afresh for it.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PushMetricExporter } from '@opentelemetry/sdk-metrics';
import { afterAll, beforeAll, describe, expect, onTestFinished, vi } from 'vitest';
import { expectDocumentedCode } from '../support/error-codes.js';
import { it } from '../support/fixtures.js';
import { freshLibrary } from '../support/fresh-library.js';
import {
  type Importer,
  importerOutsideWorkspace,
  installWithoutMain,
  reportNodeVersion,
} from '../support/missing-package.js';

const PEER = '@opentelemetry/exporter-prometheus';
const SDK = '@opentelemetry/sdk-metrics';

const sentence = (fn: string, line: 2 | 3) =>
  `backupstats: ${fn} needs the package ${PEER}, which is not installed; install it with: npm install "${PEER}@>=0.${line}00 <0.${line + 1}00" (the 0.${line}xx exporters go with the installed SDK ${line}.x)`;

/** Writes `files` (path → text) under `dir`. */
function write(dir: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

/** An install of the SDK in the importer's node_modules, its main file two folders below its package.json. */
function installSdk(importer: Importer, manifest: object): void {
  write(join(importer.dir, 'node_modules', SDK), {
    'package.json': JSON.stringify({ name: SDK, main: 'build/src/index.js', ...manifest }),
    'build/src/index.js': '',
  });
}

/** Where the library resolves packages from, and the file it takes itself to be (its own without one). */
let resolving: { importer: Importer; bundle: string | undefined } | undefined;

/**
 * The two factories, of the library loaded afresh once for the file with node:module and node:url mocked. Loaded
 * outside the tests, so that what the library does when it loads stays outside them too, as in every other file.
 */
let library: {
  createPushgatewayExporter: typeof import('backupstats/pushgateway').createPushgatewayExporter;
  createTextfileExporter: typeof import('backupstats/textfile').createTextfileExporter;
};
beforeAll(async () => {
  vi.doMock('node:module', async (original) => {
    const real = await original<typeof import('node:module')>();
    const createRequire = (from: string | URL) =>
      real.createRequire(resolving === undefined ? from : join(resolving.importer.dir, 'program.cjs'));
    return { ...real, createRequire };
  });
  vi.doMock('node:url', async (original) => {
    const real = await original<typeof import('node:url')>();
    return { ...real, fileURLToPath: (url: string | URL) => resolving?.bundle ?? real.fileURLToPath(url) };
  });
  const { pushgateway, textfile } = await freshLibrary();
  library = {
    createPushgatewayExporter: pushgateway.createPushgatewayExporter,
    createTextfileExporter: textfile.createTextfileExporter,
  };
});
// The next files get the library on the real builtins.
afterAll(async () => {
  vi.doUnmock('node:module');
  vi.doUnmock('node:url');
  await freshLibrary();
});

/** The two factories, resolving packages from `importer`'s directory; with `bundle`, taking themselves to be it. */
function factories(importer: Importer, bundle?: string) {
  resolving = { importer, bundle };
  const made: PushMetricExporter[] = [];
  onTestFinished(async () => {
    resolving = undefined;
    for (const exporter of made) await exporter.shutdown();
  });
  return [
    ['createPushgatewayExporter', () => made.push(library.createPushgatewayExporter({ url: 'http://127.0.0.1:9' }))],
    [
      'createTextfileExporter',
      () => made.push(library.createTextfileExporter({ path: join(importer.dir, 'backup.prom') })),
    ],
  ] as const;
}

describe('an exporter factory without exporter-prometheus installed', () => {
  it.for([
    // The SDK's line wins over the running Node.js's.
    ['SDK 3.1.0', '20.19.0', 3, { version: '3.1.0' }],
    ['SDK 2.12.0', '22.15.0', 2, { version: '2.12.0' }],
    // A version that is not a string is none: the running Node.js's line.
    ['an SDK whose version is not a string', '20.19.0', 2, { version: 3 }],
    ['no SDK', '22.15.0', 3, undefined],
    ['no SDK', '20.19.0', 2, undefined],
  ] as const)(
    'with %s, on Node.js %s: refused at once with the install line of the 0.%sxx exporters',
    async ([, node, line, manifest]) => {
      reportNodeVersion(node);
      const importer = importerOutsideWorkspace();
      if (manifest !== undefined) installSdk(importer, manifest);
      for (const [fn, make] of factories(importer)) {
        let thrown: unknown;
        try {
          make();
        } catch (error) {
          thrown = error;
        }
        expectDocumentedCode(thrown, 'BACKUPSTATS_MISSING_PEER');
        expect((thrown as Error).message).toBe(sentence(fn, line));
        expect((thrown as Error).cause).toMatchObject({ code: 'MODULE_NOT_FOUND' });
      }
    },
  );

  it('installed but broken (no main entry): made, the failure left to its import', async () => {
    const importer = importerOutsideWorkspace();
    installWithoutMain(importer, PEER);
    for (const [, make] of factories(importer)) expect(make).not.toThrow();
  });

  it.for([
    ["an application's package.json above it", { 'app/package.json': '{"name":"nightly-backup"}' }, 'app/dist'],
    // The library's own package.json five folders up is too far to be the library's.
    ['no package.json within four folders', { 'app/package.json': '{"name":"backupstats"}' }, 'app/a/b/c/d'],
  ] as const)('in a bundle with %s: made, the failure left to its import', async ([, files, folder]) => {
    const importer = importerOutsideWorkspace();
    write(importer.dir, files);
    for (const [, make] of factories(importer, join(importer.dir, folder, 'bundle.js'))) {
      expect(make).not.toThrow();
    }
  });
});
