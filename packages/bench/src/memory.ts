import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { BenchConfig } from './config.js';

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
}

const CHILD = fileURLToPath(new URL('./memory-child.ts', import.meta.url));
const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));

/** Runs one scenario in `node --expose-gc` (through tsx, like the parent) and parses its JSON line. */
function runChild(scenario: string, count: number): Promise<Record<string, number>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', CHILD, scenario, String(count)], {
      cwd: PACKAGE_DIR,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      out += text;
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code !== 0) {
        reject(new Error(`memory benchmark "${scenario}" exited with ${code ?? signal}`));
        return;
      }
      const last = out.trim().split('\n').at(-1) ?? '';
      try {
        resolve(JSON.parse(last) as Record<string, number>);
      } catch (error) {
        reject(new Error(`memory benchmark "${scenario}" printed no result: ${JSON.stringify(last)}`, { cause: error }));
      }
    });
  });
}

/** Measures heap growth over many records and over many distinct scopes, each in a fresh process. */
export async function runMemory(config: BenchConfig): Promise<MemoryResult> {
  const records = (await runChild('records', config.quick ? 100_000 : 10_000_000)) as unknown as RecordsMemory;
  const scopes = (await runChild('scopes', config.quick ? 5_000 : 100_000)) as unknown as ScopesMemory;
  return { records, scopes };
}
