/**
 * The ways the pipeline is run, in the order the first round runs them (later rounds rotate it). `wrappers on
 * noopStats` runs the same metered wrappers, with their clock reads, recording nothing: it separates what timing
 * each chunk costs (which the caller asks for) from what recording it into backupstats adds. `backupstats
 * timeOneIn 16` is the throttled mode with the opt-in sampled timing: every chunk counted, one in 16 timed. `unmetered
 * again` is a second unmetered process, the A/A control: its overhead over `unmetered` is what the method itself
 * shows when nothing differs, the margin every other row's overhead is read with.
 */
export const PIPELINE_MODES = [
  'unmetered',
  'backupstats throttled',
  'wrappers on noopStats',
  'direct OTel',
  'backupstats unthrottled',
  'backupstats timeOneIn 16',
  'unmetered again',
] as const;

/** One way of running the pipeline. */
export type PipelineMode = (typeof PIPELINE_MODES)[number];

/** Checks a mode name read from a command line or a message. */
export function isPipelineMode(name: unknown): name is PipelineMode {
  return (PIPELINE_MODES as readonly unknown[]).includes(name);
}
