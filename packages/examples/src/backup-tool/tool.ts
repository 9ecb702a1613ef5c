// The backup tool's run, once cli.ts has parsed its arguments: backs up a folder into S3 (by default an S3 server it
// starts on 127.0.0.1) or a storage folder, restores it, verifies it and prunes the backups it made beyond the last
// three, metering every stage with backupstats (runs of all four families), then prints what the OpenTelemetry
// pipeline exported.
import { existsSync, rmSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { shutdownOnExit } from 'backupstats/setup';
import type { EmbeddedStorage, ToolArgs } from './cli/args.js';
import { failed as fail } from './cli/failed.js';
import { formatBytes } from './cli/format.js';
import { createProgress, type Progress, silentProgress } from './cli/progress.js';
import { reportSeries, writeDemoReport } from './cli/report.js';
import { formatRuns, runRows } from './cli/run-summary.js';
import { formatSummary, summaryRows } from './cli/scope-summary.js';
import { listenForSignals, type Signals } from './cli/signals.js';
import { backup } from './engine/backup.js';
import { type CompressPool, createCompressPool } from './engine/compress-pool.js';
import { pruneBackups } from './engine/prune.js';
import { restore } from './engine/restore.js';
import { verifyRestored } from './engine/verify.js';
import { ExitCode, ToolError } from './errors.js';
import { generateSampleData } from './files/sample-data.js';
import {
  describeStorage,
  removeStorage,
  type StorageLocation,
  storageBelow,
  storageLocation,
  withBackupTarget,
  withRestoreSource,
} from './storage/storage-location.js';
import { startTelemetry, type Telemetry } from './telemetry/start-telemetry.js';

/** The backups the demo keeps when it prunes: the newest three of those it made. */
const KEEP_BACKUPS = 3;

const say = (line: string): void => {
  process.stdout.write(`${line}\n`);
};

/** What a run needs besides its arguments. */
interface Context {
  readonly args: ToolArgs;
  readonly telemetry: Telemetry;
  readonly progress: Progress;
  /** Folders to remove at the end (unless --keep). */
  readonly temporary: string[];
  /** Set in --loop mode: true once a signal asked to stop. */
  readonly stopRequested: () => boolean;
  /** With --workers N: the worker threads that compress and hash, recording through a link of the stats. */
  readonly pool: CompressPool | undefined;
}

/** Runs the tool as `args` say; returns the exit code. */
export async function runTool(args: ToolArgs): Promise<number> {
  let telemetry: Telemetry;
  try {
    telemetry = await startTelemetry(process.env, args.serve);
  } catch (error) {
    // A bad OTEL_* / BACKUPSTATS_* variable: the message names it and what it accepts.
    return fail(new ToolError((error as Error).message, ExitCode.Usage, { cause: error }));
  }
  const temporary: string[] = [];
  // A one-shot run: SIGTERM / SIGINT still flush and export what was measured, remove the temporary folders, then
  // end the process. The removal is synchronous and comes last: the run is still writing into the folders, and
  // from there to the end of the process no I/O callback of the run can see them gone or create them again.
  // --loop and --serve end on a signal by design, so they take the signals themselves and shut down below.
  const signals: Signals | undefined = args.loop || args.serve ? listenForSignals() : undefined;
  const atSignal = {
    shutdown: async () => {
      await telemetry.stats.shutdown();
      if (!args.keep) for (const dir of temporary) removeNow(dir);
    },
    shutdownTimeoutMillis: telemetry.stats.shutdownTimeoutMillis + 10_000,
  };
  const removeExitHook = signals === undefined ? shutdownOnExit(atSignal) : () => {};
  let stop = false;
  void signals?.next().then(() => {
    stop = true;
  });
  if (telemetry.prometheusUrl !== undefined) say(`metrics: Prometheus endpoint ${telemetry.prometheusUrl}`);

  const context: Context = {
    args,
    telemetry,
    progress: args.quiet ? silentProgress : createProgress(),
    temporary,
    stopRequested: () => stop,
    pool:
      args.workers > 0
        ? createCompressPool(args.workers, telemetry.stats.workerLink({ workers: args.workers }))
        : undefined,
  };
  let code: number = ExitCode.Ok;
  try {
    await run(context);
  } catch (error) {
    code = fail(error);
  }
  await context.pool?.close();

  // Printed on failure too: the measurements of what did happen are exported all the same.
  const collected = await telemetry.collect();
  const scopes = summaryRows(collected, reportSeries(telemetry));
  const runs = runRows(collected);
  say('\nWhat the OpenTelemetry pipeline exported (per scope; throughput = bytes / time spent in that operation):');
  process.stdout.write(formatSummary(scopes));
  say('\nRuns, by outcome:');
  process.stdout.write(formatRuns(runs));
  if (args.summaryJson !== undefined)
    await writeFile(args.summaryJson, `${JSON.stringify({ scopes, runs }, null, 1)}\n`);
  await writeDemoReport(telemetry, args.report, say);
  if (!args.keep) await Promise.all(temporary.map((dir) => rm(dir, { recursive: true, force: true })));

  if (args.serve && telemetry.prometheusUrl !== undefined) {
    say(`serving ${telemetry.prometheusUrl} until Ctrl-C (SIGINT) or SIGTERM`);
    // The endpoint does not hold the event loop open (set-up unrefs it, so that jobs can end): this timer does.
    const keepAlive = setInterval(() => {}, 1 << 30);
    // A signal that came during a one-shot run already asked to end.
    if (!stop || args.loop) await signals?.next();
    clearInterval(keepAlive);
  }
  signals?.close();
  removeExitHook();
  await telemetry.stats.shutdown();
  return code;
}

/**
 * Removes `dir` before the process ends at a signal. File operations the run had already handed to libuv's threads
 * still run while the main thread removes it, and one of them (the S3 server's recursive mkdir of an object's
 * folder) can create the path again: so the removal waits a moment for them, without running any callback that
 * could start more, and removes what they made.
 */
function removeNow(dir: string): void {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let attempt = 0; attempt < 5; attempt += 1) {
    rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
    Atomics.wait(pause, 0, 0, 50);
    if (!existsSync(dir)) return;
  }
}

async function run(context: Context): Promise<void> {
  const { args } = context;
  const stats = context.telemetry.stats;
  const common = {
    concurrency: args.concurrency,
    progress: context.progress,
    compression: args.compression,
    level: args.level,
    pool: context.pool,
  };
  const command = args.command;
  if (command.kind === 'backup') {
    const where = storageLocation(command.storage, 'backup <storage>', process.env);
    const result = await withBackupTarget(where, stats.backup, (target) =>
      backup({ ...common, source: command.source, target, stats: stats.backup }),
    );
    say(
      `backup: ${result.manifest.files.length} files, ${formatBytes(result.bytes)} -> ${formatBytes(result.storedBytes)} stored (${args.compression}) in ${describeStorage(where)}`,
    );
    reportSkipped(result.skipped);
    return;
  }
  if (command.kind === 'restore') {
    const where = storageLocation(command.storage, 'restore <storage>', process.env);
    const result = await withRestoreSource(where, stats.restore, (source) =>
      restore({ ...common, source, target: command.target, stats: stats.restore }),
    );
    say(
      `restore: ${result.manifest.files.length} files, ${formatBytes(result.bytes)} into ${command.target}; every size and sha256 matches the manifest`,
    );
    return;
  }

  const work = await mkdtemp(join(tmpdir(), 'backupstats-demo-'));
  context.temporary.push(work);
  let source = command.source;
  if (source === undefined) {
    source = join(work, 'source');
    say(`generating sample data: ${formatBytes(args.sizeBytes)} in ${source}`);
    const sample = await generateSampleData(source, args.sizeBytes, args.files);
    say(`generated ${sample.files} files, ${formatBytes(sample.bytes)}`);
  }
  // Without a location in --storage, the round trip goes to storage started here (s3rver, Azurite or a folder),
  // its data under `work`.
  const embedded = args.storage === undefined ? await startStorage(args.embedded, work, say) : undefined;
  try {
    const storage: StorageLocation =
      embedded === undefined ? storageLocation(args.storage as string, '--storage', process.env) : embedded.where;
    if (!args.loop) {
      await roundTrip(context, source, storage, resolve(args.restoreTo ?? join(work, 'restored')));
      // Only the backups this process made are pruned: here the one it just made, which the prune keeps.
      await prune(context, [storage]);
      if (args.keep) say(`kept: ${work}`);
      return;
    }
    say(`looping: backup, restore, verify, prune to the last ${KEEP_BACKUPS}, again, until Ctrl-C (SIGINT) or SIGTERM`);
    let cycles = 0;
    let backups: readonly StorageLocation[] = [];
    try {
      while (!context.stopRequested()) {
        const cycle = storageBelow(storage, `cycle-${cycles}`);
        const target = join(work, `restored-${cycles}`);
        await roundTrip(context, source, cycle, target);
        await rm(target, { recursive: true, force: true });
        backups = await prune(context, [...backups, cycle]);
        cycles += 1;
        say(`cycles: ${cycles}`);
      }
    } finally {
      // The backups the prunes kept, removed as the round trips' restored folders are (not a prune of the tool's).
      await Promise.all(backups.map(removeStorage));
    }
  } finally {
    await embedded?.close();
  }
}

/** Starts the storage `--storage s3|azure|file` names, and says where it is. */
async function startStorage(
  kind: EmbeddedStorage,
  work: string,
  say: (line: string) => void,
): Promise<{ readonly where: StorageLocation; close(): Promise<void> }> {
  if (kind === 'file') return { where: { kind: 'folder', folder: join(work, 'storage') }, close: async () => {} };
  if (kind === 'azure') {
    const azure = await (await import('./storage/azure-server.js')).startEmbeddedAzurite(join(work, 'azurite'));
    say(`Azure Blob Storage server (Azurite) on ${azure.endpoint}, container ${azure.location.container}`);
    return { where: { kind: 'azure', location: azure.location }, close: () => azure.close() };
  }
  const s3 = await (await import('./storage/s3-server.js')).startEmbeddedS3(join(work, 's3'));
  say(`S3 server (s3rver) on ${s3.connection.endpoint}, bucket ${s3.bucket}`);
  return {
    where: { kind: 's3', location: { bucket: s3.bucket, prefix: 'backup/' }, connection: s3.connection },
    close: () => s3.close(),
  };
}

/** Backs `source` up into `storage`, restores it into `target`, and verifies the restored tree. */
async function roundTrip(context: Context, source: string, storage: StorageLocation, target: string): Promise<void> {
  const { args, telemetry } = context;
  const { backup: backupStats, restore: restoreStats } = telemetry.stats;
  const common = { concurrency: args.concurrency, progress: context.progress };
  const saved = await withBackupTarget(storage, backupStats, (into) =>
    backup({
      ...common,
      source,
      target: into,
      compression: args.compression,
      level: args.level,
      stats: backupStats,
      pool: context.pool,
    }),
  );
  say(
    `backup: ${saved.manifest.files.length} files, ${formatBytes(saved.bytes)} -> ${formatBytes(saved.storedBytes)} stored (${args.compression}) in ${describeStorage(storage)}`,
  );
  reportSkipped(saved.skipped);
  const restored = await withRestoreSource(storage, restoreStats, (from) =>
    restore({ ...common, source: from, target, stats: restoreStats }),
  );
  const verified = await verifyRestored(target, restored.manifest, telemetry.stats.verify);
  say(
    `restore: ${verified.files} files, ${formatBytes(verified.bytes)} into ${target}; verified: every size and sha256 matches the source`,
  );
}

/** Prunes `backups` (oldest first) to the newest {@link KEEP_BACKUPS} as a prune run; returns those kept. */
async function prune(context: Context, backups: readonly StorageLocation[]): Promise<readonly StorageLocation[]> {
  const pruned = await pruneBackups(backups, KEEP_BACKUPS, context.telemetry.stats.prune);
  say(`prune: ${pruned.deleted} old backups deleted, ${formatBytes(pruned.bytes)} freed, ${pruned.kept.length} kept`);
  return pruned.kept;
}

function reportSkipped(skipped: readonly string[]): void {
  if (skipped.length > 0)
    process.stderr.write(`skipped ${skipped.length} entries that are not regular files, e.g. ${skipped[0]}\n`);
}
