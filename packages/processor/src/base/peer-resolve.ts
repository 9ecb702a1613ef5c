import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMissing, missingPeerError, sdkLineOf } from './missing-peer.js';

/**
 * Resolves packages as an `import()` or `require()` in the library's own files would, synchronously: a factory that
 * must stay synchronous can refuse at once when an optional peer is not installed. The build defines
 * `import.meta.url` in its CommonJS files too (tsup's shims).
 */
const resolveHere = (name: string): string => createRequire(import.meta.url).resolve(name);

/**
 * Throws `BACKUPSTATS_MISSING_PEER` when the optional peer `name` is not installed, naming `askedBy` and the
 * `npm install` line of the installed SDK's line (of the running Node.js's without an SDK). A package that is
 * installed but fails to load is left to its import, which reports it as it is.
 *
 * Only where the library runs as the package it is: an application bundle that carries the peer may run from a
 * folder without node_modules, where nothing resolves; there the import, which the bundler made, tells.
 */
export function requirePeer(name: string, askedBy: string): void {
  try {
    resolveHere(name);
  } catch (error) {
    if (isMissing(error, name) && runsAsPackage())
      throw missingPeerError(name, askedBy, sdkLineOf(installedSdkVersion()), error);
  }
}

/** True when the nearest package.json above this file is the library's own (not an application bundle's). */
function runsAsPackage(): boolean {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let up = 0; up < 4; up++, dir = dirname(dir)) {
    const name = manifestAt(dir)?.name;
    if (name !== undefined) return name === 'backupstats';
  }
  return false;
}

/** The name and version of the package.json in `dir`; undefined without one. */
function manifestAt(dir: string): { name?: unknown; version?: unknown } | undefined {
  try {
    return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: unknown; version?: unknown };
  } catch {
    // None there, or not JSON.
  }
  return undefined;
}

/**
 * The version of the installed `@opentelemetry/sdk-metrics`, read from the package.json above its main file (SDK
 * 3.x does not export its package.json); undefined without one.
 */
function installedSdkVersion(): string | undefined {
  let dir: string;
  try {
    dir = dirname(resolveHere('@opentelemetry/sdk-metrics'));
  } catch {
    return undefined;
  }
  // The main file sits in a build folder or two below the package's root.
  for (let up = 0; up < 6; up++, dir = dirname(dir)) {
    const manifest = manifestAt(dir);
    if (manifest?.name === '@opentelemetry/sdk-metrics' && typeof manifest.version === 'string')
      return manifest.version;
  }
  return undefined;
}
