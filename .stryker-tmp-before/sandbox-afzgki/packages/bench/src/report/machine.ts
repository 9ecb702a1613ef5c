// @ts-nocheck
import { availableParallelism, cpus } from 'node:os';

/** The machine a run measured, repeated on every result row so that rows can be compared across runs. */
export interface Machine {
  readonly cpu: string;
  readonly cores: number;
  readonly node: string;
}

/** Describes this machine: CPU model, logical cores available to Node, Node version. */
export function describeMachine(): Machine {
  const model = cpus()[0]?.model.trim() ?? 'unknown CPU';
  return { cpu: model === '' ? 'unknown CPU' : model, cores: availableParallelism(), node: process.version };
}

/** One line for a table cell or a caption. */
export function machineLabel(machine: Machine): string {
  return `${machine.cpu}, ${machine.cores} cores, Node ${machine.node}`;
}
