import { ERROR_CODES, withCode } from './errors.js';
/**
 * The OpenTelemetry JS line the optional peers must come from: SDK 2.x with exporters 0.2xx, or SDK 3.x with
 * exporters 0.3xx. npm picks the newest exporter unless told a range, and an exporter of the other line wants
 * another `@opentelemetry/api` than the installed SDK (ERESOLVE).
 */
export type SdkLine = 2 | 3;

const EXPORTER_RANGES: Readonly<Record<SdkLine, string>> = { 2: '>=0.200 <0.300', 3: '>=0.300 <0.400' };
/** The packages versioned with the SDK itself (the others are exporters, versioned 0.x). */
const SDK_PACKAGES = new Set(['@opentelemetry/sdk-metrics', '@opentelemetry/resources']);

/**
 * The line of the installed SDK, from its version (`telemetry.sdk.version` of its default resource); without an
 * SDK, the line the running Node.js supports (SDK 3.x needs Node.js 22.15 or later).
 */
export function sdkLineOf(sdkVersion: string | undefined): SdkLine {
  // Stryker disable next-line StringLiteral: parseInt of any non-numeric default is NaN, as it is of the empty string
  const sdkMajor = Number.parseInt(sdkVersion ?? '', 10);
  if (sdkMajor === 2 || sdkMajor === 3) return sdkMajor;
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  return major > 22 || (major === 22 && minor >= 15) ? 3 : 2;
}

/** The argument of `npm install` for `name` on `line` (quoted when it holds a space), and why that version. */
function installHint(name: string, line: SdkLine): string {
  if (SDK_PACKAGES.has(name)) {
    const why =
      line === 3
        ? 'the current OpenTelemetry JS line, for Node.js 22.15 or later'
        : `the OpenTelemetry JS line for Node.js ${process.version}; 3.x needs 22.15 or later`;
    return `${name}@^${line} (SDK ${line}.x, ${why})`;
  }
  if (!name.startsWith('@opentelemetry/')) return name;
  return `"${name}@${EXPORTER_RANGES[line]}" (the 0.${line}xx exporters go with the installed SDK ${line}.x)`;
}

/**
 * The rejection handler of `import(name)`: when the package is not installed, an Error naming the variable or
 * call that asked for it and the `npm install` line for the SDK's line; any other error as it is.
 *
 * Call sites write `import('literal').catch(missingPeer(...))`: bundlers such as esbuild then bundle the package
 * when it is installed and leave the import to run time when it is not, instead of failing the build.
 */
export function missingPeer(name: string, askedBy: string, line: SdkLine): (error: unknown) => never {
  return (error) => {
    throw isMissing(error, name) ? missingPeerError(name, askedBy, line, error) : error;
  };
}

/**
 * The error `BACKUPSTATS_MISSING_PEER`: `askedBy` (a variable or a call) needs the package `name`, and the
 * `npm install` line for the SDK's line. `cause` is what the import threw.
 */
export function missingPeerError(name: string, askedBy: string, line: SdkLine, cause: unknown): Error {
  return withCode(
    new Error(
      `backupstats: ${askedBy} needs the package ${name}, which is not installed; install it with: npm install ${installHint(name, line)}`,
      { cause },
    ),
    ERROR_CODES.MISSING_PEER,
  );
}

/**
 * True when `error` is what `import(name)` or `require(name)` throws for a package that is not installed. The
 * package missing is the one Node's message quotes first ("Cannot find package 'name' imported from …", "Cannot
 * find module 'name'"): a package that is installed but lacks one of its own dependencies fails with the same code
 * and its name in the path of the file that asked, and is not missing.
 */
export function isMissing(error: unknown, name: string): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  // This check → `false` is an equivalent mutant (only Node's not-found errors, which have these codes, have the
  // messages checked next); not disabled, so that the mutants of each code stay tested.
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return false;
  return (
    error.message.startsWith(`Cannot find package '${name}'`) ||
    error.message.startsWith(`Cannot find module '${name}'`)
  );
}
