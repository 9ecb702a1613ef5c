import { type ChildProcess, spawn } from 'node:child_process';

/** How a child process ended: its exit code, or the signal that ended it. */
export interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** Options of {@link startNode}. */
export interface NodeProcessOptions {
  /** Variables on top of the cleaned environment (see {@link cleanEnv}); they win. */
  readonly env?: Readonly<Record<string, string>> | undefined;
  readonly cwd?: string | undefined;
  /** The Node.js binary (default: the one running this code). */
  readonly node?: string | undefined;
  /** A command and its arguments to run Node.js under, for example `unshare`. */
  readonly wrapper?: readonly string[] | undefined;
  /** Run as this user and group (root can drop to `nobody`, so that file permissions apply). */
  readonly uid?: number | undefined;
  readonly gid?: number | undefined;
  /** `inherit` passes the child's stdout through instead of keeping it. Default `pipe`. */
  readonly stdout?: 'pipe' | 'inherit' | undefined;
  /** `inherit` passes the child's stderr through instead of keeping it. Default `pipe`. */
  readonly stderr?: 'pipe' | 'inherit' | undefined;
  /** Opens the IPC channel of `child_process.fork` (`child.send`, `'message'` events). */
  readonly ipc?: boolean | undefined;
}

/** A running Node.js child process and what it printed so far. */
export interface NodeProcess {
  readonly child: ChildProcess;
  /** Everything written to stdout so far (empty when inherited). */
  stdout(): string;
  /** Everything written to stderr so far (empty when inherited), to explain a failure. */
  stderr(): string;
  /** How it ended, once it has and its output is complete; undefined before. */
  exit(): Exit | undefined;
  /** Resolves with {@link exit} once the process has ended (a failure to start counts as an end). */
  readonly exited: Promise<Exit>;
  /** SIGKILLs the process if still running; resolves once it has ended. */
  kill(): Promise<void>;
}

/**
 * The parent's environment without what would steer the child's telemetry or its fixtures (every `OTEL_*`,
 * `BACKUPSTATS_*` and `FIXTURE_*` variable, and `NODE_OPTIONS`, which a test runner may have set), plus `env`.
 * `NODE_EXTRA_CA_CERTS` is dropped too: Node 20 parses every certificate of that file as it starts (some 50 ms of
 * CPU per child on a machine whose bundle is the system's), and the children reach only 127.0.0.1, trusting the
 * certificates they are given. `env` may set it again.
 */
export function cleanEnv(env: Readonly<Record<string, string>> = {}): NodeJS.ProcessEnv {
  const kept = Object.entries(process.env).filter(
    ([name]) => !/^(OTEL_|BACKUPSTATS_|FIXTURE_)/.test(name) && !DROPPED.has(name),
  );
  return { ...Object.fromEntries(kept), ...env };
}

const DROPPED = new Set(['NODE_OPTIONS', 'NODE_EXTRA_CA_CERTS']);

/**
 * The environment for an `npm` child of a test run under pnpm: pnpm hands its own settings to scripts as
 * `npm_config_*` variables (`verify_deps_before_run`, `npm_globalconfig`, `_jsr_registry`, …), which npm does not
 * know and warns about ("npm warn Unknown env config") on every run. Only the settings npm shares with the user's
 * configuration (where packages come from and where they are kept) are passed on.
 */
export function npmEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(([name]) => {
      const setting = /^npm_config_(.*)$/i.exec(name)?.[1]?.toLowerCase();
      return setting === undefined || NPM_SETTINGS_KEPT.has(setting);
    }),
  );
}

/**
 * {@link npmEnv} for an npm that reaches the registry: with the certificates the suite's runner (scripts/run-tests.mjs)
 * set aside as `TEST_NODE_EXTRA_CA_CERTS` given back as `NODE_EXTRA_CA_CERTS`, which the suite's other processes
 * start without.
 */
export function registryEnv(): NodeJS.ProcessEnv {
  const env = npmEnv();
  const caCerts = process.env.TEST_NODE_EXTRA_CA_CERTS;
  if (caCerts !== undefined && env.NODE_EXTRA_CA_CERTS === undefined) env.NODE_EXTRA_CA_CERTS = caCerts;
  return env;
}

const NPM_SETTINGS_KEPT = new Set(['registry', 'cache', 'userconfig', 'globalconfig', 'offline', 'prefer_offline']);

/** Starts `node <args>` with the cleaned environment and keeps its output. */
export function startNode(args: readonly string[], options: NodeProcessOptions = {}): NodeProcess {
  const command = [...(options.wrapper ?? []), options.node ?? process.execPath, ...args];
  const child = spawn(command[0] as string, command.slice(1), {
    cwd: options.cwd,
    env: cleanEnv(options.env),
    stdio: [
      'ignore',
      options.stdout ?? 'pipe',
      options.stderr ?? 'pipe',
      ...(options.ipc === true ? (['ipc'] as const) : []),
    ],
    ...(options.uid === undefined ? {} : { uid: options.uid, gid: options.gid ?? options.uid }),
  });
  let stdout = '';
  let stderr = '';
  let ended: Exit | undefined;
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<Exit>((resolve) => {
    child.once('close', (code, signal) => {
      ended = { code, signal };
      resolve(ended);
    });
    child.once('error', (error) => {
      stderr += `\nspawn failed: ${error.message}`;
      ended = { code: null, signal: null };
      resolve(ended);
    });
  });
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    exit: () => ended,
    exited,
    async kill() {
      if (ended === undefined) child.kill('SIGKILL');
      await exited;
    },
  };
}
