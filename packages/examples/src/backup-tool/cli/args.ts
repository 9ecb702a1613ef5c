import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { LEVELS } from '../engine/compression.js';
import { COMPRESSIONS, type Compression } from '../engine/manifest.js';
import { ExitCode, ToolError } from '../errors.js';
import { isS3Url, parseS3Location } from '../storage/s3-location.js';

/** What the command line asks for. */
export type Command =
  | { readonly kind: 'demo'; readonly source: string | undefined }
  | { readonly kind: 'backup'; readonly source: string; readonly storage: string }
  | { readonly kind: 'restore'; readonly storage: string; readonly target: string };

/** What `--storage s3|azure|file` starts for the round trip: an S3 server, Azurite, or a temporary folder. */
export type EmbeddedStorage = 's3' | 'azure' | 'file';
const EMBEDDED: readonly EmbeddedStorage[] = ['s3', 'azure', 'file'];

/** The parsed command line. */
export interface ToolArgs {
  readonly command: Command;
  readonly sizeBytes: number;
  readonly files: number | undefined;
  readonly compression: Compression;
  readonly level: number | undefined;
  readonly concurrency: number;
  /** Worker threads for the backup's compression and checksums; 0: none, all on the main thread. */
  readonly workers: number;
  /** A folder or s3:// location given with --storage; undefined for storage the demo starts itself. */
  readonly storage: string | undefined;
  /** The storage the demo's round trip starts itself when --storage names no location. */
  readonly embedded: EmbeddedStorage;
  readonly restoreTo: string | undefined;
  readonly keep: boolean;
  readonly serve: boolean;
  readonly loop: boolean;
  readonly quiet: boolean;
  readonly summaryJson: string | undefined;
  /** Where the report page goes (backupstats/report). */
  readonly report: string;
  readonly help: boolean;
}

export const USAGE = `Usage:
  backup-demo [options]                     generate sample data, back it up into S3 (an S3 server started here
                                            on 127.0.0.1), restore it, verify it
  backup-demo [options] <folder>            back up <folder>, restore it into a new folder, verify it
  backup-demo [options] backup <folder> <storage>
  backup-demo [options] restore <storage> <folder>

  <storage> is a folder, or s3://bucket/prefix for any S3 or S3-compatible storage, reached with AWS's own
  variables: AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL (an S3-compatible server; path-style addressing),
  AWS_REGION, AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY or AWS_PROFILE.

Options:
  --size <size>           sample data size, e.g. 200MiB, 4MiB, 1GiB (default 200MiB; env BACKUPSTATS_DEMO_SIZE)
  --files <n>             number of sample files (default: a few hundred, fewer for small sizes)
  --compression <name>    gzip or brotli (default gzip)
  --level <n>             compression level: gzip 1-9, brotli 0-11 (default: gzip 6, brotli 5)
  --concurrency <n>       files processed at once, 1-64 (default 2)
  --workers <n>           compress and hash the backup's files in n worker threads, 0-64 (default 0: none);
                          each worker meters its stages into the same metrics
  --storage <storage>     storage for the round trip: s3 (default: a bucket on an S3 server, s3rver, started on
                          127.0.0.1 for the run), azure (a container on Azurite, Microsoft's Azure Storage
                          server, started the same way), file (a temporary folder), or a folder or
                          s3://bucket/prefix of your own (write ./s3 for a folder named s3)
  --restore-to <folder>   restore folder for the round trip (default: a new temporary folder)
  --keep                  keep the temporary folders
  --serve                 serve the Prometheus endpoint (OTEL_METRICS_EXPORTER=prometheus unless set) and stay
                          up after the run until Ctrl-C, so that it can be scraped
  --loop                  repeat the backup/restore cycle on the same data until Ctrl-C (live dashboards);
                          each cycle uses new storage (a new prefix under an s3:// --storage) and a new
                          temporary restore folder, removed after the cycle
  --summary-json <file>   also write the summary as JSON: { scopes: [...], runs: [...] }
  --report <file>         where to write the report page (backupstats/report: runs, bottleneck, charts; opens
                          in a browser, loads nothing); default a new file in the temporary folder for every
                          run, backupstats-report-<time>-<pid>-<n>.html
  Relative paths are taken from the folder the command was run in (with pnpm demo too).
  --quiet                 no progress output
  -h, --help              this text

Metrics: every OTEL_* and BACKUPSTATS_* variable of backupstats/setup applies (OTEL_METRICS_EXPORTER defaults to
none here). Exit codes: 0 ok, 2 bad command line, 3 source unreadable, 4 destination not writable or full,
5 backup damaged or checksum mismatch, 6 S3 endpoint unreachable, 7 S3 bucket missing, 8 S3 access denied,
1 anything else.`;

function usage(message: string): ToolError {
  return new ToolError(`${message}\n\n${USAGE}`, ExitCode.Usage);
}

const UNITS: Readonly<Record<string, number>> = {
  b: 1,
  k: 1024,
  kb: 1000,
  kib: 1024,
  m: 1024 ** 2,
  mb: 1000 ** 2,
  mib: 1024 ** 2,
  g: 1024 ** 3,
  gb: 1000 ** 3,
  gib: 1024 ** 3,
};

/** `200MiB`, `4 MiB`, `512KiB`, `1GiB`, `1000000B`; a bare number is MiB. */
export function parseSize(text: string, name: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(text);
  const unit = match?.[2]?.toLowerCase() || 'mib';
  const factor = UNITS[unit];
  const bytes = match !== null && factor !== undefined ? Math.round(Number(match[1]) * factor) : Number.NaN;
  if (!Number.isSafeInteger(bytes) || bytes < 1 || bytes > 64 * 1024 ** 3) {
    throw usage(`${name} is ${JSON.stringify(text)}; accepted: a size from 1B to 64GiB such as 200MiB, 512KiB or 1GiB`);
  }
  return bytes;
}

function parseInteger(text: string | undefined, name: string, min: number, max: number): number | undefined {
  if (text === undefined) return undefined;
  const value = /^\d+$/.test(text.trim()) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw usage(`${name} is ${JSON.stringify(text)}; accepted: an integer from ${min} to ${max}`);
  }
  return value;
}

/** Parses the command line; throws a usage error (exit code 2) naming the flag, its value and what is accepted. */
export function parseToolArgs(argv: readonly string[], env: NodeJS.ProcessEnv): ToolArgs {
  let parsed: ReturnType<typeof parse>;
  try {
    // `pnpm demo -- --size 1GiB` hands the separator on: a leading one is not the end of the options here.
    parsed = parse(argv[0] === '--' ? argv.slice(1) : argv);
  } catch (error) {
    throw usage((error as Error).message);
  }
  const { values, positionals } = parsed;
  const here = commandFolder(env);
  const local = (path: string | undefined): string | undefined =>
    path === undefined ? undefined : resolve(here, path);
  const storagePath = (path: string): string => (isS3Url(path) ? path : resolve(here, path));
  const compression = (values.compression ?? 'gzip') as Compression;
  if (!COMPRESSIONS.includes(compression)) {
    throw usage(`--compression is ${JSON.stringify(values.compression)}; accepted: ${COMPRESSIONS.join(' or ')}`);
  }
  const [low, high] = LEVELS[compression];
  const sizeText = values.size ?? env.BACKUPSTATS_DEMO_SIZE?.trim();
  const sizeName = values.size !== undefined ? '--size' : 'BACKUPSTATS_DEMO_SIZE';
  const parsedCommand = resolveCommand(command(positionals), local, storagePath);
  const embedded = EMBEDDED.find((name) => name === values.storage);
  const location = embedded === undefined ? values.storage : undefined;
  if (
    values.loop &&
    (parsedCommand.kind !== 'demo' ||
      (location !== undefined && !isS3Url(location)) ||
      values['restore-to'] !== undefined)
  ) {
    throw usage(
      '--loop repeats the round trip in temporary folders: it takes no backup/restore command, --restore-to or folder --storage (an s3:// one is fine)',
    );
  }
  // A malformed s3:// location is a usage error now, not a failure half-way.
  if (location !== undefined && isS3Url(location)) parseS3Location(location, '--storage');
  if (parsedCommand.kind !== 'demo' && isS3Url(parsedCommand.storage))
    parseS3Location(parsedCommand.storage, `${parsedCommand.kind} <storage>`);
  return {
    command: parsedCommand,
    sizeBytes: sizeText ? parseSize(sizeText, sizeName) : 200 * 1024 * 1024,
    files: parseInteger(values.files, '--files', 1, 100_000),
    compression,
    level: parseInteger(values.level, `--level (${compression})`, low, high),
    concurrency: parseInteger(values.concurrency, '--concurrency', 1, 64) ?? 2,
    workers: parseInteger(values.workers, '--workers', 0, 64) ?? 0,
    storage: location === undefined ? undefined : storagePath(location),
    embedded: embedded ?? 's3',
    restoreTo: local(values['restore-to']),
    keep: values.keep ?? false,
    serve: values.serve ?? false,
    loop: values.loop ?? false,
    quiet: values.quiet ?? false,
    summaryJson: local(values['summary-json']),
    report: local(values.report) ?? join(tmpdir(), `backupstats-report-${Date.now()}-${process.pid}-${++reports}.html`),
    help: values.help ?? false,
  };
}

/** Default report pages named in this process: two runs in one process get a page each too. */
let reports = 0;

/**
 * The folder the user ran the command in. `pnpm demo` runs the script in packages/examples and says where the
 * user was in INIT_CWD; only this package's scripts are trusted with it, since the variable also reaches any
 * process a script of another package starts.
 */
function commandFolder(env: NodeJS.ProcessEnv): string {
  const initial = env.INIT_CWD?.trim();
  return env.npm_package_name === '@backupstats/examples' && initial ? initial : process.cwd();
}

/** The command with its folders and folder storage made absolute. */
function resolveCommand(
  parsed: Command,
  local: (path: string | undefined) => string | undefined,
  storagePath: (path: string) => string,
): Command {
  switch (parsed.kind) {
    case 'demo':
      return { kind: 'demo', source: local(parsed.source) };
    case 'backup':
      return { kind: 'backup', source: local(parsed.source) as string, storage: storagePath(parsed.storage) };
    case 'restore':
      return { kind: 'restore', storage: storagePath(parsed.storage), target: local(parsed.target) as string };
  }
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: {
      size: { type: 'string' },
      files: { type: 'string' },
      compression: { type: 'string' },
      level: { type: 'string' },
      concurrency: { type: 'string' },
      workers: { type: 'string' },
      storage: { type: 'string' },
      'restore-to': { type: 'string' },
      keep: { type: 'boolean' },
      serve: { type: 'boolean' },
      loop: { type: 'boolean' },
      quiet: { type: 'boolean' },
      'summary-json': { type: 'string' },
      report: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

function command(positionals: readonly string[]): Command {
  const [first, second, third, ...rest] = positionals;
  if (first === 'backup' || first === 'restore') {
    if (second === undefined || third === undefined || rest.length > 0) {
      throw usage(first === 'backup' ? 'backup needs <folder> <storage>' : 'restore needs <storage> <folder>');
    }
    return first === 'backup'
      ? { kind: 'backup', source: second, storage: third }
      : { kind: 'restore', storage: second, target: third };
  }
  if (second !== undefined) throw usage(`one folder expected, got ${positionals.length}: ${positionals.join(' ')}`);
  return { kind: 'demo', source: first };
}
