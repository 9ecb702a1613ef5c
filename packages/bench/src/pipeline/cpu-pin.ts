import { spawnSync } from 'node:child_process';

/** Where the pipeline's mode processes run. */
export interface CpuPin {
  /** The one CPU every mode process is pinned to, or undefined when they run unpinned. */
  readonly cpu: number | undefined;
  /** The command to start each mode process under (`taskset -c <cpu>`), empty when unpinned. */
  readonly wrapper: readonly string[];
}

const UNPINNED: CpuPin = { cpu: undefined, wrapper: [] };

/**
 * Pins every mode process to the same CPU, the first this process may run on, with `taskset` (util-linux) where
 * it exists. The CPUs of a shared virtual machine need not be equally fast (on one 2-core machine, the same
 * unmetered pipeline ran 10-15 % slower on CPU 1 than on CPU 0), so an unpinned mode process that the scheduler
 * kept on the slower CPU shifted its whole row by as much as the overhead being measured. On one CPU every mode meets the same hardware; its
 * helper threads (GC, compiler) share that CPU too, alike in every mode.
 */
export function pinToOneCpu(): CpuPin {
  if (process.platform !== 'linux') return UNPINNED;
  const query = spawnSync('taskset', ['-cp', String(process.pid)], { encoding: 'utf8' });
  if (query.status !== 0) return UNPINNED;
  // "pid 123's current affinity list: 0,1" or "0-3,6".
  const first = /affinity list:\s*(\d+)/.exec(query.stdout)?.[1];
  if (first === undefined) return UNPINNED;
  // A container may list its CPUs yet forbid setting an affinity: then the benchmark runs unpinned rather than not at all.
  if (spawnSync('taskset', ['-c', first, process.execPath, '-e', '0']).status !== 0) return UNPINNED;
  return { cpu: Number(first), wrapper: ['taskset', '-c', first] };
}
