// @ts-nocheck
import { type Exit, type NodeProcessOptions, startNode } from '@backupstats/testkit/node-process';
import { elapsedMs } from './sample.js';

/** A benchmark's child process, run to its end. */
export interface NodeRun extends Exit {
  /** Wall time of the whole process, start-up included. */
  readonly ms: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `node <args>` to its end and times the whole process. Every benchmark child starts through
 * `@backupstats/testkit`'s `startNode`, as the tests' children do: the same cleaned environment (no `OTEL_*`,
 * `BACKUPSTATS_*` or `NODE_OPTIONS` of the bench's own), plus `options.env`.
 */
export async function runNode(args: readonly string[], options: NodeProcessOptions = {}): Promise<NodeRun> {
  const start = process.hrtime.bigint();
  const run = startNode(args, options);
  const exit = await run.exited;
  return { ...exit, ms: elapsedMs(start), stdout: run.stdout(), stderr: run.stderr() };
}
