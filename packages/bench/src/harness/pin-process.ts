import { spawnSync } from 'node:child_process';

/** This process pinned to one CPU, and how to undo it. */
export interface ProcessPin {
  /** The CPU this process and its threads run on, or undefined when `taskset` could not pin it. */
  readonly cpu: number | undefined;
  /** Gives the process back the CPUs it had. */
  restore(): void;
}

/**
 * Pins this process, every thread of it, to the first CPU it may run on, with `taskset` (util-linux) where it
 * works: cases timed in one process then meet the same core (the CPUs of a shared virtual machine need not be
 * equally fast) and no migration between rounds.
 */
export function pinThisProcess(): ProcessPin {
  const unpinned: ProcessPin = { cpu: undefined, restore: () => {} };
  if (process.platform !== 'linux') return unpinned;
  const pid = String(process.pid);
  const query = spawnSync('taskset', ['-cp', pid], { encoding: 'utf8' });
  // "pid 123's current affinity list: 0,1" or "0-3,6".
  const list = /affinity list:\s*(\S+)/.exec(query.status === 0 ? query.stdout : '')?.[1];
  const first = list === undefined ? undefined : /^\d+/.exec(list)?.[0];
  if (list === undefined || first === undefined) return unpinned;
  if (spawnSync('taskset', ['-a', '-cp', first, pid]).status !== 0) return unpinned;
  return { cpu: Number(first), restore: () => void spawnSync('taskset', ['-a', '-cp', list, pid]) };
}
