/** SIGINT / SIGTERM as promises, for the modes that end on a signal (`--loop`, `--serve`). */
// @ts-nocheck

export interface Signals {
  /** Resolves at the next SIGINT or SIGTERM after the call. */
  next(): Promise<NodeJS.Signals>;
  /** Removes the listeners. */
  close(): void;
}

/**
 * Listens for SIGINT and SIGTERM. While it listens, a signal no longer ends the process by itself: the tool
 * finishes the cycle in progress, prints its summary, and shuts the exporters down before it ends.
 */
export function listenForSignals(): Signals {
  let waiters: Array<(signal: NodeJS.Signals) => void> = [];
  const onSignal = (signal: NodeJS.Signals): void => {
    const woken = waiters;
    waiters = [];
    for (const wake of woken) wake(signal);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    next: () => new Promise((resolve) => waiters.push(resolve)),
    close() {
      process.removeListener('SIGINT', onSignal);
      process.removeListener('SIGTERM', onSignal);
    },
  };
}
