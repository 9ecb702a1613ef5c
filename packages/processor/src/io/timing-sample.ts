import { notAccepted, showValue } from '../diagnostics/error-messages.js';
import { type IntegerRule, integerText, isIntegerIn } from '../diagnostics/integer-rule.js';

/** Options every stream meter takes. */
export interface MeterOptions {
  /**
   * Time one operation in `timeOneIn` instead of every one, to cut the clock reads (about 50 ns each) on
   * streams of small chunks. Counts and bytes stay exact: every operation is recorded. The timed operation is
   * chosen at random (between 1 and 2 × `timeOneIn` - 1 operations after the previous one, `timeOneIn` on
   * average, so that no periodic pattern of the stream is always or never timed), its duration means what it
   * means without sampling, and it is recorded multiplied by the number of operations it stands for; the
   * others record no time. The recorded time is then an estimate: its sum over many operations is the busy
   * time without bias, a single operation's record is not its own time, and the operations after a stream's
   * last timed one add none. Default 1: every operation is timed.
   */
  readonly timeOneIn?: number | undefined;
}

const TIME_ONE_IN: IntegerRule = { min: 1, max: 65_536, note: 'operations per timed operation' };

/** The example options of a stream meter's error messages. */
export const OPTIONS_EXAMPLE = '{ timeOneIn: 16 }';

/** `options.timeOneIn` checked, for the meter named `meter`; 1 when not set. */
export function timeOneInOf(options: MeterOptions, meter: string): number {
  const value = options.timeOneIn;
  if (value === undefined) return 1;
  if (!isIntegerIn(value, TIME_ONE_IN))
    throw notAccepted(`${meter} option timeOneIn`, showValue(value), integerText(TIME_ONE_IN));
  return value;
}

/**
 * How many operations the next timed one stands for: itself and the untimed ones before it. Always 1 without
 * sampling (no random number drawn); otherwise uniform from 1 to 2 × `every` - 1, drawn before those
 * operations run, so it cannot depend on their durations and the weighted sum stays unbiased.
 */
export function nextSpan(every: number): number {
  return every === 1 ? 1 : 1 + Math.floor(Math.random() * (2 * every - 1));
}

/**
 * The sampling state of one metered stream: how many operations to leave untimed before the next timed one, and
 * how many operations that one stands for. The meters extend it, so the state sits in their own object.
 */
export class TimingSample {
  /** Operations to leave untimed before the next timed one (always 0 without sampling). */
  untimed = 0;
  /** How many operations the next timed one stands for (always 1 without sampling). */
  span = 1;

  constructor(readonly every: number) {
    this.redraw();
  }

  /** Draws the next timed operation's span, after a timed one. */
  redraw(): void {
    this.span = nextSpan(this.every);
    this.untimed = this.span - 1;
  }
}
