/**
 * The ways the pipeline is run, in the order even rounds run them (odd rounds run them backwards). `wrappers on
 * noopStats` runs the same metered wrappers, with their clock reads, recording nothing: it separates what timing
 * each chunk costs (which the caller asks for) from what recording it into backupstats adds. The cheap modes
 * sit next to `unmetered`, so each ratio compares runs close in time.
 */
export const PIPELINE_MODES = [
  'unmetered',
  'backupstats throttled',
  'wrappers on noopStats',
  'direct OTel',
  'backupstats unthrottled',
] as const;

/** One way of running the pipeline. */
export type PipelineMode = (typeof PIPELINE_MODES)[number];

/** Checks a mode name read from a command line or a message. */
export function isPipelineMode(name: unknown): name is PipelineMode {
  return (PIPELINE_MODES as readonly unknown[]).includes(name);
}
