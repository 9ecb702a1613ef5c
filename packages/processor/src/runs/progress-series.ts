import type { Attributes } from '@opentelemetry/api';
import type { ProgressSpec } from '../naming/progress-naming.js';
import type { ProgressReading } from '../timeline/run-progress.js';
import type { ProgressGauges } from './progress-instruments.js';

/** The most distinct phases one handle exports: a phase is a label value, so their number is bounded. */
export const MAX_PHASES = 16;
/** The longest phase name kept. */
export const MAX_PHASE_LENGTH = 64;

/**
 * The gauges of the runs in progress on one series handle: how many are in progress, where the latest one given an
 * expected size stands, and the phases named on it. Once set, a gauge is observed at every collection, with the
 * value of the latest run, so that its series never keeps a stale value the SDK would carry on its own: observed
 * (observable gauges) or set again (synchronous ones) with the values it has.
 */
export class ProgressSeries {
  /** Runs in progress given an expected size; observed once one was. */
  active = 0;
  // Stryker disable next-line BooleanLiteral: made for a run with an expected size, whose started() sets it
  private followed = false;
  private reading: ProgressReading | undefined;
  /** Each phase's attributes, and 1 for the current phase, 0 for the others. */
  private readonly phases = new Map<string, { readonly attributes: Attributes; value: number }>();
  /** The gauge series {@link each} gave so far; they only ever grow in number. */
  private given = 0;

  constructor(
    private readonly attributes: Attributes,
    private readonly spec: ProgressSpec,
  ) {}

  /** A run given an expected size started. */
  started(): void {
    this.active += 1;
    this.followed = true;
  }

  /** Keeps where the latest run stands; at its end, `ended` leaves no time left. */
  show(reading: ProgressReading, ended: boolean): void {
    this.reading = ended ? { ...reading, remainingSeconds: 0 } : reading;
  }

  /** Makes `name` the current phase; false when it is a new one past {@link MAX_PHASES}. */
  enter(name: string): boolean {
    let phase = this.phases.get(name);
    if (phase === undefined) {
      if (this.phases.size >= MAX_PHASES) return false;
      phase = { attributes: Object.freeze({ ...this.attributes, [this.spec.phaseKey]: name }), value: 0 };
      this.phases.set(name, phase);
    }
    this.leavePhases();
    phase.value = 1;
    return true;
  }

  /** No phase is current any more: the run ended, or another one started. */
  leavePhases(): void {
    for (const phase of this.phases.values()) phase.value = 0;
  }

  /**
   * Gives `emit` each gauge that has a value, with its value and attributes. Returns true when one of them was not
   * given before: a synchronous gauge's series starts then. (Every collection gives them all again, so a gauge's
   * series is never idle through a collection.)
   */
  each<G>(gauges: ProgressGauges<G>, emit: (gauge: G, value: number, attributes: Attributes) => void): boolean {
    let given = 0;
    // Stryker disable next-line ConditionalExpression: made for a run with an expected size, whose started() sets it
    if (this.followed) {
      emit(gauges.active, this.active, this.attributes);
      given += 1;
    }
    const reading = this.reading;
    if (reading !== undefined) {
      emit(gauges.progress, reading.ratio, this.attributes);
      emit(gauges.remainingTime, reading.remainingSeconds, this.attributes);
      emit(gauges.lastProgressTime, reading.lastProgressAt / 1000, this.attributes);
      given += 3;
    }
    for (const phase of this.phases.values()) emit(gauges.phase, phase.value, phase.attributes);
    given += this.phases.size;
    const more = given > this.given;
    if (more) this.given = given;
    return more;
  }
}
