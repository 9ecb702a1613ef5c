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
// The min is taken per interval between reports and summed (PipelineStages), not over the totals: both waits must
// happen at the same time. A meter that starts while the meter before it is still starting waits for its input, but
// the one before does not wait for its output then, so those waits do not count.
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

/** One report of a meter: when, and its two waits so far. */
interface Point {
  readonly at: number;
  readonly in: number;
  readonly out: number;
}

/** A wait at time `at`, linear between two reports, flat before the first and after the last. */
function waitAt(points: readonly Point[], at: number, which: 'in' | 'out'): number {
  let before: Point | undefined;
  for (const point of points) {
    if (point.at >= at) {
      if (before === undefined || point.at === before.at) return point[which];
      return before[which] + ((point[which] - before[which]) * (at - before.at)) / (point.at - before.at);
    }
    before = point;
  }
  return before === undefined ? 0 : before[which];
}

/**
 * The stages of a pipeline while it runs. The meters report at times of their own; each meter's waits are taken as
 * growing linearly between its reports, and a stage between two meters adds, over each stretch of time both meters
 * have reported, the min of the two waits' growth in it.
 */
export class PipelineStages {
  private readonly points = new Map<string, Point[]>();
  /** Per pair of meters (the one before, the one after): how far in time it was summed, and the sum. */
  private readonly pairs = new Map<string, { until: number; busyMs: number }>();

  update(meters: readonly MeterReport[], ended: boolean): StageTotals[] {
    for (const meter of meters) {
      let points = this.points.get(meter.id);
      if (points === undefined) {
        points = [];
        this.points.set(meter.id, points);
      }
      const last = points.at(-1);
      if (last === undefined || meter.at > last.at) {
        points.push({ at: meter.at, in: meter.inputWaitMs, out: meter.outputWaitMs });
      }
    }
    const ordered = pipelineOrder(meters);
    const stages = stagesOf(ordered, ended).map((stage, i) => {
      const before = ordered[i - 1];
      const after = ordered[i];
      if (before === undefined || after === undefined) return stage;
      return { ...stage, busyMs: this.pairBusy(before.id, after.id) };
    });
    this.forget(ordered);
    return stages;
  }

  /** Drops the reports no pair needs any more: those before the last one at or before where its pairs summed to. */
  private forget(ordered: readonly MeterReport[]): void {
    ordered.forEach((meter, i) => {
      const points = this.points.get(meter.id);
      if (points === undefined) return;
      const untils = [ordered[i - 1], ordered[i + 1]].flatMap((other, side) => {
        if (other === undefined) return [];
        const key = side === 0 ? `${other.id}>${meter.id}` : `${meter.id}>${other.id}`;
        return [this.pairs.get(key)?.until ?? Number.NEGATIVE_INFINITY];
      });
      const until = untils.length === 0 ? Number.POSITIVE_INFINITY : Math.min(...untils);
      let keep = 0;
      while (keep + 1 < points.length && (points[keep + 1] as Point).at <= until) keep++;
      if (keep > 0) points.splice(0, keep);
    });
  }

  private pairBusy(beforeId: string, afterId: string): number {
    const outs = this.points.get(beforeId) ?? [];
    const ins = this.points.get(afterId) ?? [];
    const key = `${beforeId}>${afterId}`;
    let pair = this.pairs.get(key);
    if (pair === undefined) {
      pair = { until: Math.min(outs[0]?.at ?? 0, ins[0]?.at ?? 0), busyMs: 0 };
      this.pairs.set(key, pair);
    }
    const end = Math.min(outs.at(-1)?.at ?? 0, ins.at(-1)?.at ?? 0);
    if (end <= pair.until) return pair.busyMs;
    const times = [pair.until, ...[...outs, ...ins].map((p) => p.at).filter((t) => t > pair.until && t < end), end];
    times.sort((a, b) => a - b);
    for (let k = 1; k < times.length; k++) {
      const from = times[k - 1] as number;
      const to = times[k] as number;
      if (to <= from) continue;
      const out = waitAt(outs, to, 'out') - waitAt(outs, from, 'out');
      const input = waitAt(ins, to, 'in') - waitAt(ins, from, 'in');
      const both = Math.min(out, input);
      if (both > 0) pair.busyMs += both;
    }
    pair.until = end;
    return pair.busyMs;
  }
}
