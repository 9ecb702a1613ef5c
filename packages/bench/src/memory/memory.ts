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

/** Runs one scenario in `node --expose-gc` (through tsx, like the parent) and parses its JSON line. */
async function runChild(scenario: string, count: number): Promise<Record<string, number>> {
  const run = await runNode(['--expose-gc', '--import', 'tsx', CHILD, scenario, String(count)], {
    cwd: PACKAGE_DIR,
    stderr: 'inherit',
  });
  if (run.code !== 0) throw new Error(`memory benchmark "${scenario}" exited with ${run.code ?? run.signal}`);
  const last = run.stdout.trim().split('\n').at(-1) ?? '';
  try {
    return JSON.parse(last) as Record<string, number>;
  } catch (error) {
    throw new Error(`memory benchmark "${scenario}" printed no result: ${JSON.stringify(last)}`, { cause: error });
  }
}

/** Measures heap growth over many records and over many distinct scopes, each in a fresh process. */
export async function runMemory(config: BenchConfig): Promise<MemoryResult> {
  // --quick: few records, and scope requests just past the default bound (1,999), so both sides of it are measured.
  const records = (await runChild('records', config.quick ? 10_000 : 10_000_000)) as unknown as RecordsMemory;
  const scopes = (await runChild('scopes', config.quick ? 2_500 : 100_000)) as unknown as ScopesMemory;
  const scopesWithHistograms = (await runChild(
    'scopes-histograms',
    config.quick ? 2_500 : 100_000,
  )) as unknown as ScopesMemory;
  return { records, scopes, scopesWithHistograms };
}
