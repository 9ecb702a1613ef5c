// The `backupstats` command (docs/shell.md).
import * as nodeModule from 'node:module';
import { UsageError } from './options.js';

declare const BACKUPSTATS_CLI_VERSION: string;

const USAGE = `Usage: backupstats COMMAND [options]

Meters shell backup jobs with backupstats: whole runs, and the stages of a shell pipeline.

Commands:
  run [options] -- COMMAND [ARGS...]   runs COMMAND as one run and exports it at the end
  meter --operation OP [options]       a pipeline stage: copies stdin to stdout and measures it

  backupstats COMMAND --help           the options of a command
  backupstats --version                the version

Configuration comes from the OTEL_* and BACKUPSTATS_* variables, as for startBackupStats() (docs/configuration.md).
Example, for cron and node_exporter's textfile collector:

  OTEL_METRICS_EXPORTER=textfile BACKUPSTATS_TEXTFILE_PATH=/var/lib/prometheus/node-exporter/db.prom \\
  backupstats run -- sh -c 'pg_dump db | backupstats meter --operation Source:Read | gzip \\
    | backupstats meter --operation Compressor:Write > /backups/db.gz'`;

/**
 * Each command's module, loaded only when that command runs: `run` never uses the copy thread's modules
 * (worker_threads, tty), and every module loaded is start-up time of every job.
 */
const COMMANDS: Record<string, () => Promise<(args: string[]) => Promise<number>>> = {
  run: async () => (await import('./run.js')).runCommand,
  meter: async () => (await import('./meter.js')).meterCommand,
};

async function main(argv: string[]): Promise<number> {
  // Node.js 22.1 and later keep the code they compile on disk (in the temporary folder) for the next start: the
  // library's bundle, which `run` requires on every start, is then not compiled again. Node.js 20 has no such cache.
  (nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();
  const [command, ...args] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return command === undefined ? 2 : 0;
  }
  if (command === '--version' || command === '-V') {
    process.stdout.write(`${BACKUPSTATS_CLI_VERSION}\n`);
    return 0;
  }
  try {
    const load = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
    if (load === undefined) throw new UsageError(`unknown command ${JSON.stringify(command)}: run or meter`);
    return await (await load())(args);
  } catch (error) {
    const usage = Object.hasOwn(COMMANDS, command);
    if (error instanceof UsageError || isArgsError(error)) {
      process.stderr.write(`backupstats ${usage ? `${command}: ` : ''}${(error as Error).message}\n`);
      process.stderr.write(`Try: backupstats ${usage ? `${command} ` : ''}--help\n`);
      return 2;
    }
    // The library's set-up errors (a variable it does not accept, a missing package) say what to change.
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && code.startsWith('BACKUPSTATS_')) {
      process.stderr.write(
        `backupstats ${command}: ${(error as Error).message.replace(/^backupstats: /, '')} (${code})\n`,
      );
      return 2;
    }
    throw error;
  }
}

/** util.parseArgs' own errors: an unknown option, a missing value. */
function isArgsError(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_');
}

// An explicit exit: a command that left something behind (a grandchild holding a pipe) must not hold the job.
main(process.argv.slice(2)).then(
  (status) => process.exit(status),
  (error: unknown) => {
    // What no command expected: its stack, as Node.js prints an uncaught error, and the status Node.js gives it.
    process.stderr.write(`${(error as Error)?.stack ?? String(error)}\n`);
    process.exit(1);
  },
);
