/**
 * The ways the pipeline is run, in the order the first round runs them (later rounds rotate it). `backupstats
 * default` is what a user gets without options: the throttled flush and the stream meters' timing by budget.
 * `wrappers on noopStats` runs the same metered wrappers, with their clock reads, recording nothing: it separates
 * what timing costs from what recording into backupstats adds. `backupstats exact timing` times every chunk
 * (`timeOneIn: 1`): its summed durations are what the default's estimate is compared with. `unmetered again` is a
 * second unmetered process, the A/A control: its overhead over `unmetered` is what the method itself shows when
 * nothing differs, the margin every other row's overhead is read with.
 */
// @ts-nocheck

export const PIPELINE_MODES = [
  'unmetered',
  'backupstats default',
  'wrappers on noopStats',
  'direct OTel',
  'backupstats unthrottled',
  'backupstats exact timing',
  'unmetered again',
] as const;

/** One way of running the pipeline. */
export type PipelineMode = (typeof PIPELINE_MODES)[number];

/** Checks a mode name read from a command line or a message. */
export function isPipelineMode(name: unknown): name is PipelineMode {
  return (PIPELINE_MODES as readonly unknown[]).includes(name);
}
