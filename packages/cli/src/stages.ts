// The stages of a shell pipeline from what its meters saw (docs/shell.md, "Which stage is the bottleneck").
//
// A meter sits between two stages. Waiting for its input, it says the stage before it is slower than the rest of
// the pipeline after it; waiting for its output to drain, it says the stage after it is slower. A stage between two
// meters is busy, rather than waiting on a neighbour, while the meter before it waits on its output (the stage is not
// taking data) AND the meter after it waits on its input (the stage is not giving data): a stage starved by a slow
// source makes the meter after it wait too, but then the meter before it waits on its input, not its output. So:
//
//   the source (before the first meter)       busy = the first meter's input wait
//   a stage between meters m(i-1) and m(i)    busy = min(output wait of m(i-1), input wait of m(i))
//   the destination (after the last meter)    busy = the last meter's output wait
//
// A stage is named by the operation of the meter it writes into; the stage after the last meter is
// `Destination:Write`. Meters are put in pipeline order by when their first byte came in: data reaches a meter only
// after it passed every meter before it.
import type { MeterReport } from './channel.js';

/** The operation of the stage after the last meter. */
export const DESTINATION_OPERATION = 'Destination:Write';

/** One stage's cumulative numbers. */
export interface StageTotals {
  readonly operation: string;
  readonly component?: string | undefined;
  readonly implementation?: string | undefined;
  /** The reads of the meter after it (its writes, for the destination). */
  readonly count: number;
  /** The bytes it wrote: what the meter after it read (for the destination, what the last meter wrote). */
  readonly bytes: number;
  /** Milliseconds it was busy, by the rule above. */
  readonly busyMs: number;
}

/** The meters in pipeline order: first byte first; those without a byte after, by their start. */
export function pipelineOrder(meters: readonly MeterReport[]): MeterReport[] {
  const at = (meter: MeterReport) => meter.firstByteAt ?? Number.POSITIVE_INFINITY;
  return [...meters].sort((a, b) => at(a) - at(b) || a.startedAt - b.startedAt || (a.id < b.id ? -1 : 1));
}

/**
 * Every stage of the pipeline that `meters` (latest reports, any order) sit in. A stage's numbers come from the meter
 * after it and the one before it, both known as soon as data reached the meter after it; which meter is last is
 * known only when the pipeline has ended: `ended` false leaves the destination out.
 */
export function stagesOf(meters: readonly MeterReport[], ended = true): StageTotals[] {
  const ordered = pipelineOrder(meters);
  const stages: StageTotals[] = ordered.map((meter, i) => {
    const before = ordered[i - 1];
    const busyMs = before === undefined ? meter.inputWaitMs : Math.min(before.outputWaitMs, meter.inputWaitMs);
    return { ...labelsOf(meter, meter.operation), count: meter.reads, bytes: meter.bytesIn, busyMs };
  });
  const last = ordered.at(-1);
  if (ended && last !== undefined) {
    stages.push({
      ...labelsOf(last, DESTINATION_OPERATION),
      count: last.writes,
      bytes: last.bytesOut,
      busyMs: last.outputWaitMs,
    });
  }
  return stages;
}

function labelsOf(meter: MeterReport, operation: string) {
  return { operation, component: meter.component, implementation: meter.implementation };
}

/** The stage with the most busy time, or undefined when none was busy. */
export function busiestStage(stages: readonly StageTotals[]): StageTotals | undefined {
  let top: StageTotals | undefined;
  for (const stage of stages) if (stage.busyMs > 0 && (top === undefined || stage.busyMs > top.busyMs)) top = stage;
  return top;
}
