import { constants } from 'node:os';
import { removeWritesInProgress } from '../../base/atomic-file.js';
import { shutdownFailed, shutdownLate, signalDeadlinePassed } from '../../diagnostics/messages.js';

/** One {@link shutdownOnExit} registration. */
export interface ExitEntry {
  readonly shutdown: () => Promise<void>;
  /** After this long, the process ends without waiting for this shutdown any more. */
  readonly timeoutMillis: number;
  readonly signals: ReadonlySet<NodeJS.Signals>;
}

/**
 * The one owner of the end of the process: every `shutdownOnExit` registration of every copy of backupstats in
 * the process (ESM and CommonJS builds, several versions) goes through the same coordinator, so that they never
 * take each other for "the program's own listener" and wait for one another.
 */
export interface ExitCoordinator {
  readonly version: 1;
  /** Adds a registration; returns the function that removes it again. */
  register(entry: ExitEntry): () => void;
}

// Symbol.for: the same key from every copy of the library, in every module system.
const KEY = Symbol.for('backupstats.exit-coordinator');
let own: ExitCoordinator | undefined;

/**
 * How long other listeners of the signal have, once the final export is done, to end the process themselves. A
 * listener that only logs would otherwise hold it until the export deadline (31 s by default: a Kubernetes grace
 * period, then SIGKILL). One needing longer passes `signals: []` to shutdownOnExit and ends the process itself.
 */
const OTHERS_GRACE_MILLIS = 1000;

/** The process-wide coordinator (created on first use). */
export function exitCoordinator(): ExitCoordinator {
  const holder = globalThis as { [KEY]?: ExitCoordinator };
  const shared = holder[KEY];
  if (shared?.version === 1) return shared;
  own ??= createCoordinator();
  // A coordinator of another version keeps its place: this copy's registrations then have their own, and the two
  // see each other as other listeners, which the rule below never lets deafen the process.
  if (shared === undefined) holder[KEY] = own;
  return own;
}

/**
 * The rule, on SIGTERM, SIGINT or any signal a registration asked for:
 *
 * 1. The first signal starts the shutdown of every registration that asked for it, all at once, each within its
 *    deadline. Listeners of backupstats are one listener, never "other listeners".
 * 2. Once they are done: if nobody else listens to the signal, the process ends by it (raised again, so that a
 *    shell sees 128 + its number). If other listeners exist (the program's own, another library), they decide
 *    how the process ends for {@link OTHERS_GRACE_MILLIS} more (never past the longest deadline from the
 *    signal); after that it ends by the signal all the same. So parties that each wait for "someone else" never
 *    leave the process deaf, and a listener that only logs does not hold it for the whole deadline.
 * 3. Any further signal of those listened to ends the process at once, whatever is under way and whoever else
 *    listens: Ctrl-C twice always works.
 *
 * The normal end of the program (`beforeExit`) shuts every registration down; if one reached its deadline, its
 * work left behind could hold the event loop, so the process then exits with the code the program set.
 */
function createCoordinator(): ExitCoordinator {
  const entries = new Set<ExitEntry>();
  const listening = new Set<NodeJS.Signals>();
  let beforeExitInstalled = false;
  /** Set once a shutdown has started (signal or normal end): a signal after that ends the process at once. */
  let started = false;
  let ended = false;

  const othersListen = (signal: NodeJS.Signals): boolean =>
    process.listeners(signal).some((listener) => listener !== onSignal);

  /** Ends the process by `signal` now, as if nobody had caught it (or with its shell code if others listen). */
  const endBy = (signal: NodeJS.Signals): void => {
    if (ended) return;
    ended = true;
    const code = 128 + (constants.signals[signal] ?? 0);
    removeListeners();
    // Raising the signal again with other listeners would only call them: end with the code a shell would show.
    if (othersListen(signal)) process.exit(code);
    // With no listener left, Node restores the default action, so the process dies by the signal, without `exit`.
    removeWritesInProgress();
    process.kill(process.pid, signal);
    // Should the signal be ignored (inherited SIG_IGN), end with the status a shell would show for it.
    setTimeout(() => process.exit(code), 1000);
  };

  const onSignal = (signal: NodeJS.Signals): void => {
    if (started) {
      endBy(signal);
      return;
    }
    started = true;
    const chosen = [...entries].filter((entry) => entry.signals.has(signal));
    const deadline = Math.max(0, ...chosen.map((entry) => entry.timeoutMillis));
    const signalled = performance.now();
    // Until the shutdowns are done the other listeners decide; the ref'd timer keeps the process alive that long.
    const late = setTimeout(() => {
      if (ended) return;
      signalDeadlinePassed(signal, deadline);
      endBy(signal);
    }, deadline);
    void shutdownAll(chosen).then(() => {
      if (!othersListen(signal)) {
        endBy(signal);
        return;
      }
      clearTimeout(late);
      const left = deadline - (performance.now() - signalled);
      setTimeout(() => endBy(signal), Math.max(0, Math.min(OTHERS_GRACE_MILLIS, left)));
    });
  };

  const onBeforeExit = (): void => {
    if (started) return;
    started = true;
    const chosen = [...entries];
    void shutdownAll(chosen).then((late) => {
      for (const entry of chosen) entries.delete(entry);
      sync();
      if (late) process.exit();
      // Done: a registration made from here on starts afresh.
      started = false;
    });
  };

  const removeListeners = (): void => {
    for (const signal of listening) process.removeListener(signal, onSignal);
    listening.clear();
    process.removeListener('beforeExit', onBeforeExit);
    beforeExitInstalled = false;
  };

  /** One listener per signal some registration asked for, and one for beforeExit while any registration is left. */
  const sync = (): void => {
    if (ended) return;
    const wanted = new Set([...entries].flatMap((entry) => [...entry.signals]));
    for (const signal of wanted) {
      if (!listening.has(signal)) process.on(signal, onSignal);
      listening.add(signal);
    }
    for (const signal of listening) {
      if (wanted.has(signal)) continue;
      process.removeListener(signal, onSignal);
      listening.delete(signal);
    }
    if (entries.size > 0 && !beforeExitInstalled) process.on('beforeExit', onBeforeExit);
    if (entries.size === 0 && beforeExitInstalled) process.removeListener('beforeExit', onBeforeExit);
    beforeExitInstalled = entries.size > 0;
  };

  return {
    version: 1,
    register(entry) {
      entries.add(entry);
      sync();
      return () => {
        entries.delete(entry);
        sync();
      };
    },
  };
}

/** Runs every shutdown at once, each within its deadline; resolves true if any reached it. */
async function shutdownAll(entries: readonly ExitEntry[]): Promise<boolean> {
  const late = await Promise.all(
    entries.map(async (entry) => {
      try {
        if ((await within(entry.shutdown(), entry.timeoutMillis)) !== LATE) return false;
        shutdownLate('at exit', entry.timeoutMillis);
        return true;
      } catch (error) {
        shutdownFailed('at exit', error);
        return false;
      }
    }),
  );
  return late.includes(true);
}

/** What {@link within} resolves with when the deadline came first. */
export const LATE: unique symbol = Symbol('late');

/**
 * Settles as `work` does, or resolves {@link LATE} once `millis` have passed, whichever comes first. The timer is
 * ref'd on purpose: it keeps the process alive while `work` waits on handles that do not (unref'd sockets and
 * servers), and no longer than the deadline.
 */
export async function within<T>(work: Promise<T>, millis: number): Promise<T | typeof LATE> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<typeof LATE>((resolve) => {
    timer = setTimeout(() => resolve(LATE), millis);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
