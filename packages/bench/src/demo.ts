import type { BenchConfig } from './config.js';
import type { Summary } from './sample.js';

/** The demo backup with metrics on and off, or why it could not run. */
export type DemoResult =
  | {
      readonly status: 'measured';
      readonly dataMiB: number;
      readonly rounds: number;
      readonly onMs: Summary;
      readonly offMs: Summary;
      /** Median of per-round (on / off - 1), percent. */
      readonly overheadPercent: number;
      readonly overheadMinPercent: number;
      readonly overheadMaxPercent: number;
      readonly command: string;
    }
  | { readonly status: 'todo'; readonly reason: string };

/** TODO(bench): the demo's backup tool (packages/examples) is not there yet; measured once it lands. */
export async function runDemo(_config: BenchConfig, _log: (line: string) => void): Promise<DemoResult> {
  return { status: 'todo', reason: 'the demo backup tool in packages/examples is not ready yet' };
}
