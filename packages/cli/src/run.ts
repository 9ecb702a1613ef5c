// `backupstats run`: runs a command as one run of a family, with the stages its meters report.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { constants, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Run, RunFailureReason, Stats } from 'backupstats';
import { decodeReport, type MeterReport, RUN_SOCKET_VARIABLE } from './channel.js';
import { DEFAULT_LABELS, parseBytes, parseLabels, UsageError } from './options.js';
import { StageRecorder } from './stage-recorder.js';
import { PipelineStages } from './stages.js';
import { consoleToStderr } from './stderr-console.js';

/** The families `--family` names; those the installed library has are accepted. */
export const FAMILIES = ['backup', 'restore', 'verify', 'prune'] as const;
export type Family = (typeof FAMILIES)[number];

export const RUN_USAGE = `Usage: backupstats run [options] -- COMMAND [ARGS...]

Runs COMMAND as one run: stdio inherited, signals forwarded, its exit status returned as its own. The run succeeds
when COMMAND exits 0 and fails otherwise (reason interrupted when a signal ended it). Every \`backupstats meter\`
inside COMMAND reports its stage to this run. At the end it exports once through the exporters the OTEL_* and
BACKUPSTATS_* variables configure, and writes the report when BACKUPSTATS_REPORT_PATH is set.

  --family NAME          ${FAMILIES.join(', ')} (default backup; the installed library decides which exist)
  --label name=value     component or implementation of the run and its stages (repeatable;
                         default component=${DEFAULT_LABELS.component}, implementation=${DEFAULT_LABELS.implementation})
  --expected-bytes N     the bytes the run reads (K, M, G, T suffixes): it exports progress and time left
  --help, -h             this text

A first SIGINT, SIGTERM, SIGHUP or SIGQUIT is forwarded to COMMAND; a second is forwarded too, and then run ends
the run as interrupted, exports within OTEL_METRIC_EXPORT_TIMEOUT plus 1 s and kills COMMAND if it is still there.
Exit status: COMMAND's; killed by COMMAND's signal when one ended it; 127 when COMMAND cannot be started; 2 on a bad
command line or configuration.`;

interface Options {
  readonly family: Family;
  readonly labels: { readonly component: string; readonly implementation: string };
  readonly expectedBytes: number | undefined;
  readonly command: readonly string[];
}

/** Options that take a value: the scan that finds where the command starts must skip their values. */
const VALUED = new Set(['--family', '--label', '--expected-bytes']);

export function parseRunArgs(args: string[]): Options | 'help' {
  // The command starts after `--`, or at the first argument that is not an option: its own options are its own.
  let at = 0;
  while (at < args.length) {
    const arg = args[at] as string;
    if (arg === '--' || !arg.startsWith('-')) break;
    at += VALUED.has(arg) ? 2 : 1;
  }
  const own = args.slice(0, Math.min(at, args.length));
  const command = args[at] === '--' ? args.slice(at + 1) : args.slice(at);
  const { values } = parseArgs({
    args: own,
    options: {
      family: { type: 'string' },
      label: { type: 'string', multiple: true },
      'expected-bytes': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return 'help';
  const family = values.family ?? 'backup';
  if (!(FAMILIES as readonly string[]).includes(family)) {
    throw new UsageError(`--family ${JSON.stringify(family)} is not accepted: one of ${FAMILIES.join(', ')}`);
  }
  if (command.length === 0) throw new UsageError('no command: give it after --, as in: backupstats run -- ./backup.sh');
  return {
    family: family as Family,
    labels: { ...DEFAULT_LABELS, ...parseLabels(values.label) },
    expectedBytes: parseBytes('--expected-bytes', values['expected-bytes']),
    command,
  };
}

/** Whether a property of the stats is a family: a Stats handle. */
function isStats(value: unknown): boolean {
  return typeof value === 'object' && value !== null && typeof (value as Stats).scope === 'function';
}

/** The run's operation: its family's, capitalized (`Backup`, `Restore`, ...), as the library names its runs. */
const runOperation = (family: Family) => `${family[0]?.toUpperCase()}${family.slice(1)}`;

/** Signals `run` passes on to its command; the first four, received twice, end the run. */
const FORWARDED = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT', 'SIGUSR2'] as const;
const ENDING: ReadonlySet<string> = new Set(['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT']);

/** How long, after the command ended, the meters' last lines may take to arrive. */
const CHANNEL_GRACE_MS = 2000;

/** How the command ended. */
type Ending = { code: number; signal: null } | { code: null; signal: NodeJS.Signals } | { spawnError: Error };

export async function runCommand(args: string[]): Promise<number> {
  const options = parseRunArgs(args);
  if (options === 'help') {
    process.stdout.write(`${RUN_USAGE}\n`);
    return 0;
  }
  consoleToStderr();
  const { createBackupStats, RunFailure, startBackupStats } = await import('./library.js');
  // Stats without a provider cost nothing and have the families of the installed library: checked before anything
  // is built or exported.
  const probe = createBackupStats();
  const families = FAMILIES.filter((name) => isStats((probe as unknown as Record<string, unknown>)[name]));
  await probe.shutdown();
  if (!families.includes(options.family)) {
    throw new UsageError(
      `--family ${JSON.stringify(options.family)} is not accepted: the installed backupstats library has the families ${families.join(', ')}`,
    );
  }
  const stats = await startBackupStats();
  const family = (stats as unknown as Record<Family, Stats>)[options.family];
  const recorder = new StageRecorder(family, options.labels);
  const pipeline = new PipelineStages();
  const channel = openChannel((meters) => recorder.record(pipeline.update(meters, false)));
  await channel.listening;
  const runHandle = family.scope({ ...options.labels, operation: runOperation(options.family) });
  const run: Run = runHandle.startRun(
    options.expectedBytes === undefined ? undefined : { expectedBytes: options.expectedBytes },
  );

  let received = 0;
  let giveUp: (signal: NodeJS.Signals) => void = () => {};
  const gaveUp = new Promise<NodeJS.Signals>((resolve) => {
    giveUp = resolve;
  });
  // Listening before the command starts: a signal sent as soon as the command is up (it can print before this
  // process runs again) must be forwarded, not end this process and leave the command running without a parent.
  // A listener runs on a later turn of the event loop than the spawn below, so it always finds the command.
  let command: ChildProcess | undefined;
  const listeners = FORWARDED.map((signal) => {
    const listener = () => {
      if (command !== undefined && command.exitCode === null && command.signalCode === null) command.kill(signal);
      if (ENDING.has(signal) && ++received >= 2) giveUp(signal);
    };
    process.on(signal, listener);
    return [signal, listener] as const;
  });
  const [file, ...rest] = options.command as [string, ...string[]];
  const child: ChildProcess = spawn(file, rest, {
    stdio: 'inherit',
    env: { ...process.env, [RUN_SOCKET_VARIABLE]: channel.path },
  });
  command = child;
  const ended = new Promise<Ending>((resolve) => {
    child.once('error', (spawnError) => resolve({ spawnError }));
    child.once('exit', (code, signal) =>
      resolve(signal === null ? { code: code ?? 0, signal: null } : { code: null, signal }),
    );
  });
  const outcome = await Promise.race([ended, gaveUp.then((signal) => ({ gaveUp: signal }))]);

  if ('gaveUp' in outcome) {
    recorder.record(pipeline.update(channel.meters(), true));
    run.fail(RunFailure.Interrupted);
  } else {
    await channel.drained(CHANNEL_GRACE_MS);
    const stages = pipeline.update(channel.meters(), true);
    recorder.record(stages);
    if ('spawnError' in outcome) {
      process.stderr.write(`backupstats run: cannot run ${JSON.stringify(file)}: ${outcome.spawnError.message}\n`);
      run.fail(RunFailure.Configuration);
    } else if (outcome.code === 0) {
      const source = stages[0];
      if (source === undefined) run.succeed();
      else run.succeed(source.bytes);
    } else {
      run.fail(reasonOf(outcome, RunFailure));
    }
  }
  channel.close();
  await stats.shutdown();
  for (const [signal, listener] of listeners) process.off(signal, listener);
  if ('gaveUp' in outcome) {
    // The command outlived the signal twice: it goes, and is reaped here, not left to init.
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await Promise.race([ended, new Promise((resolve) => setTimeout(resolve, 1000).unref())]);
    }
    return diesOf(outcome.gaveUp);
  }
  if ('spawnError' in outcome) return 127;
  if (outcome.signal !== null) return diesOf(outcome.signal);
  return outcome.code;
}

/**
 * Why the command failed. A signal: interrupted. Exit status 124 (`timeout`'s): timeout. 126 or 127 (the shell's
 * "cannot execute" and "not found"): configuration. Any other status: `_OTHER`.
 */
function reasonOf(
  ending: { code: number; signal: null } | { code: null; signal: NodeJS.Signals },
  reasons: typeof import('backupstats').RunFailure,
): RunFailureReason {
  if (ending.signal !== null) return reasons.Interrupted;
  if (ending.code === 124) return reasons.Timeout;
  if (ending.code === 126 || ending.code === 127) return reasons.Configuration;
  return reasons.Other;
}

const STOPS: ReadonlySet<string> = new Set(['SIGSTOP', 'SIGTSTP', 'SIGTTIN', 'SIGTTOU']);

/** Ends this process by `signal`, as the command ended, so that the shell sees the same; 128 + its number if not. */
function diesOf(signal: NodeJS.Signals): number {
  const number = constants.signals[signal] ?? 0;
  // SIGKILL (the OOM killer's) cannot be caught, so it needs no restoring; SIGSTOP and the terminal's stops would stop
  // this process rather than end it: those end with the shell's status for them.
  if (signal === 'SIGKILL') process.kill(process.pid, signal);
  if (STOPS.has(signal)) return 128 + number;
  // A listener added and removed gives the signal its default action back (Node.js ignores SIGPIPE at start).
  const none = () => {};
  process.on(signal, none);
  process.off(signal, none);
  process.kill(process.pid, signal);
  return 128 + number;
}

interface Channel {
  readonly path: string;
  readonly listening: Promise<void>;
  /** The latest report of every meter that reported. */
  meters(): MeterReport[];
  /** Resolves once every meter connected has closed its connection, or after `graceMs`. */
  drained(graceMs: number): Promise<void>;
  close(): void;
}

/** The Unix socket the meters report to, in a folder of its own that only this user can enter. */
function openChannel(onReport: (meters: MeterReport[]) => void): Channel {
  const dir = mkdtempSync(join(tmpdir(), 'backupstats-run-'));
  const path = join(dir, 'meters.sock');
  const latest = new Map<string, MeterReport>();
  const open = new Set<Socket>();
  let idle: (() => void) | undefined;
  const server: Server = createServer((socket) => {
    open.add(socket);
    let pending = '';
    socket.setEncoding('utf8');
    socket.on('data', (text: string) => {
      pending += text;
      let end = pending.indexOf('\n');
      let changed = false;
      while (end !== -1) {
        const report = decodeReport(pending.slice(0, end));
        pending = pending.slice(end + 1);
        end = pending.indexOf('\n');
        if (report === undefined) continue;
        const before = latest.get(report.id);
        // Cumulative numbers: an older line than the one kept changes nothing.
        if (before === undefined || report.reads >= before.reads) {
          latest.set(report.id, report);
          changed = true;
        }
      }
      if (changed) onReport([...latest.values()]);
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      open.delete(socket);
      if (open.size === 0) idle?.();
    });
  });
  const listening = new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => resolve());
  });
  return {
    path,
    listening,
    meters: () => [...latest.values()],
    drained: (graceMs) =>
      new Promise<void>((resolve) => {
        if (open.size === 0) {
          resolve();
          return;
        }
        const timer = setTimeout(resolve, graceMs);
        idle = () => {
          clearTimeout(timer);
          resolve();
        };
      }),
    close() {
      for (const socket of open) socket.destroy();
      server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
