import type { ReportBottleneck, ReportRun, ReportStage } from './report-schema.js';

/**
 * Operations left out of a run's stages: the whole run (its own time is the run's), and the failed and throttled
 * storage attempts, which are subsets of `AWS:Request:Send` / `HTTP:Request:Send` (counting them would count that
 * time twice).
 */
const NOT_STAGES: ReadonlySet<string> = new Set([
  'Backup',
  'Restore',
  'Verify',
  'Prune',
  'AWS:Request:Failed',
  'AWS:Request:Throttled',
  'HTTP:Request:Failed',
  'HTTP:Request:Throttled',
]);

/** Whether a series is a stage of a run. */
export function isStage(operation: string): boolean {
  return !NOT_STAGES.has(operation);
}

/** What a run bound by an operation is bound by, in words. */
const BOUND_BY: ReadonlyArray<readonly [RegExp, string]> = [
  [/^Compressor:/, 'compression'],
  [/^Decompressor:/, 'decompression'],
  [/^Source:/, 'reading its source'],
  [/^Destination:/, 'writing to its destination'],
  [/^File:Read$/, 'file reads'],
  [/^File:Write$/, 'file writes'],
  [/^AWS:Request:/, 'S3 requests'],
  [/^HTTP:Request:/, 'storage requests'],
];

/**
 * The busy share from which the busiest stage reads as what bounds the run. Below it the stage was idle a good part
 * of the run, waiting on something: another stage, or work no meter sees.
 */
export const BOUND_SHARE = 0.7;

/**
 * The stage with the highest busy share, and the sentence that says it; null for a run without stages. `stages` are
 * all the run's stages: their shares summed bound how much of the run they can cover.
 */
export function bottleneckOf(stages: readonly ReportStage[], family: ReportRun['family']): ReportBottleneck | null {
  let top: ReportStage | undefined;
  let covered = 0;
  for (const stage of stages) {
    covered += stage.busyShare;
    if (stage.busyShare > 0 && (top === undefined || stage.busyShare > top.busyShare)) top = stage;
  }
  if (top === undefined) return null;
  return {
    family: top.family,
    component: top.component,
    implementation: top.implementation,
    operation: top.operation,
    busyShare: top.busyShare,
    sentence: sentenceOf(top, family, covered),
  };
}

/** A share as the report shows it: a whole percentage, `94 %`. */
export function percent(share: number): string {
  return `${Math.round(share * 100)} %`;
}

/** `covered`: the stages' busy shares summed, at least the share of the run some stage was busy in. */
function sentenceOf(stage: ReportStage, family: ReportRun['family'], covered: number): string {
  const words = BOUND_BY.find(([pattern]) => pattern.test(stage.operation))?.[1] ?? stage.operation;
  const where = `${stage.component}/${stage.implementation}`;
  if (stage.busyShare < BOUND_SHARE) {
    const busiest = `${stage.operation} was busy ${percent(stage.busyShare)} of the run, the most of its metered stages (${where})`;
    // Stages may overlap, so what none of them covers is at least what their summed shares leave of the run.
    const uncovered = 1 - covered;
    if (Math.round(uncovered * 100) >= 1)
      return `${busiest}; at least ${percent(uncovered)} of the run went to work no metered stage measured`;
    return `${busiest}; its stages' busy time adds up to the run's length, so no single stage bounds this ${family}`;
  }
  // Several threads in one stage: its time adds up over them, and the share says how many were busy on average. A
  // share that reads 1.0 at one decimal (two operations overlapping for a moment) says nothing of threads.
  const average = stage.busyShare.toFixed(1);
  const threads = Number(average) > 1 ? ` (${average} threads at once on average)` : '';
  return `${stage.operation} was busy ${percent(stage.busyShare)} of the run${threads}: this ${family} is bound by ${words} (${where})`;
}
