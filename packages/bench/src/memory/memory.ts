import { fileURLToPath } from 'node:url';
import type { BenchConfig } from '../config.js';
import { runNode } from '../harness/node-run.js';

/** Heap growth over 10 million records on 100 held handles, after forced collections. */
export interface RecordsMemory {
  readonly records: number;
  readonly handles: number;
  readonly heapBeforeBytes: number;
  readonly heapAfterBytes: number;
  readonly growthBytes: number;
}

/** Heap after many distinct scope requests under the default bound, after forced collections. */
export interface ScopesMemory {
  readonly scopeRequests: number;
  readonly maxScopes: number;
  readonly heapEmptyBytes: number;
  readonly heapAtBoundBytes: number;
  readonly heapAfterBytes: number;
  readonly growthToBoundBytes: number;
  readonly growthPastBoundBytes: number;
}

/** Results of the memory benchmark. */
export interface MemoryResult {
  readonly records: RecordsMemory;
  readonly scopes: ScopesMemory;
  /** The same with a histogram producer attached: every series keeps its latency histogram. */
  readonly scopesWithHistograms: ScopesMemory;
}

const CHILD = fileURLToPath(new URL('./memory-child.ts', import.meta.url));
const PACKAGE_DIR = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Runs scenarios one after the other in one `node --expose-gc` (through tsx, like the parent) and parses their JSON
 * lines, the last lines of its output, in order.
 */
async function runChild(scenarios: ReadonlyArray<readonly [string, number]>): Promise<Record<string, number>[]> {
  const names = scenarios.map(([scenario]) => scenario).join(', ');
  const args = scenarios.flatMap(([scenario, count]) => [scenario, String(count)]);
  const run = await runNode(['--expose-gc', '--import', 'tsx', CHILD, ...args], {
    cwd: PACKAGE_DIR,
    stderr: 'inherit',
  });
  if (run.code !== 0) throw new Error(`memory benchmark "${names}" exited with ${run.code ?? run.signal}`);
  const lines = run.stdout.trim().split('\n').slice(-scenarios.length);
  try {
    const results = lines.map((line) => JSON.parse(line) as Record<string, number>);
    if (results.length !== scenarios.length) throw new Error(`${results.length} lines`);
    return results;
  } catch (error) {
    throw new Error(`memory benchmark "${names}" printed no result: ${JSON.stringify(lines)}`, { cause: error });
  }
}

/**
 * Measures heap growth over many records and over many distinct scopes, each in a fresh process; with --quick, all
 * three in one process (its figures mean nothing), with few records and scope requests just past the default bound
 * (1,999), so that both sides of it are measured.
 */
export async function runMemory(config: BenchConfig): Promise<MemoryResult> {
  const scenarios = [
    ['records', config.quick ? 10_000 : 10_000_000],
    ['scopes', config.quick ? 2_500 : 100_000],
    ['scopes-histograms', config.quick ? 2_500 : 100_000],
  ] as const;
  const results = config.quick
    ? await runChild(scenarios)
    : [await runChild([scenarios[0]]), await runChild([scenarios[1]]), await runChild([scenarios[2]])].flat();
  const [records, scopes, scopesWithHistograms] = results as unknown as [RecordsMemory, ScopesMemory, ScopesMemory];
  return { records, scopes, scopesWithHistograms };
}
