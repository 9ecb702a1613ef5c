import { MAX_WEIGHT } from '../base/amount.js';
import { ERROR_CODES, notAccepted, showValue } from '../base/errors.js';
import { type IntegerRule, integerText, isIntegerIn } from '../base/integer-rule.js';
import { type Clock, type ClockCost, clockCostOf, refineClockCost } from './clock-cost.js';

/** Options every stream meter takes. */
export interface MeterOptions {
  /**
   * Which operations are timed; every operation is counted with its bytes whatever this says.
   *
   * - Left out (the default): timing by budget. An operation long next to the clock (at least 100 times the cost
   *   of two clock reads) is always timed; shorter ones are timed one in N, N adapting so that the clock's share
   *   stays near 1 % of the time measured. A timed operation stands for the N operations of its block.
   * - `1`: every operation is timed: exact durations, at two clock reads (about 100 ns) per operation.
   * - `N` (2 to 65536): one operation in each block of N, at a random place in the block, stands for the block.
   *
   * Sampled, the recorded time is an estimate without bias: every operation has the same chance, 1 in N, of being
   * the one timed and then counts N times (docs/streams.md gives its spread).
   */
  readonly timeOneIn?: number | undefined;
}

// A timed operation stands for its block: the largest block is the largest weight a record accepts.
const TIME_ONE_IN: IntegerRule = { min: 1, max: MAX_WEIGHT, note: 'operations per timed operation' };

/** The example options of a stream meter's error messages. */
export const OPTIONS_EXAMPLE = '{ timeOneIn: 16 }';
/** The options of every stream meter ({@link MeterOptions}). */
export const METER_OPTIONS: readonly string[] = ['timeOneIn'];

/** `timeOneIn` for timing by budget: N adapts. */
export const BUDGET = 0;

/** The share of the measured time the clock may take under timing by budget. */
const CLOCK_SHARE = 0.01;
/** Reads a timed operation costs: its start and its end. */
const READS_PER_TIMED = 2;
/** How fast the mean duration follows new ones: each timed operation moves it 1/8 of the way. */
const MEAN_STEP = 1 / 8;

/** `options.timeOneIn` checked, for the meter named `meter`; {@link BUDGET} when not set. */
export function timeOneInOf(options: MeterOptions, meter: string): number {
  const value = options.timeOneIn;
  if (value === undefined) return BUDGET;
  if (!isIntegerIn(value, TIME_ONE_IN)) {
    throw notAccepted(
      ERROR_CODES.INVALID_OPTION,
      `${meter} option timeOneIn`,
      showValue(value),
      integerText(TIME_ONE_IN),
    );
  }
  return value;
}

/**
 * Which operations of one stream are timed, as blocks: each block of N operations has one timed operation at a
 * random place, chosen when the block starts, which stands for the block (weight N). Every operation thus has the
 * same chance, 1/N, of being timed, and counts N times when it is: the summed time is an unbiased estimate, even
 * when the stream ends inside a block. Under timing by budget N is set at each block's start from the durations
 * timed before it (never from the block's own), which keeps the estimate unbiased. The meters extend this class,
 * so the state sits in their own object.
 */
export class TimingSample {
  /** Operations to leave untimed before the next timed one. */
  untimed = 0;
  /** Operations the next timed one stands for: the size of its block. */
  weight = 1;
  /** Operations of the current block left after its timed one. */
  private rest = 0;
  /** Under timing by budget: the mean duration of timed operations, ms (0 before the first). */
  private mean = 0;
  /** Under timing by budget: what a read of the clock costs (refined as the process runs). */
  private readonly cost: ClockCost | undefined;

  constructor(
    /** Operations per timed operation, or {@link BUDGET}. */
    private readonly every: number,
    readonly clock: Clock,
  ) {
    this.cost = every === BUDGET ? clockCostOf(clock) : undefined;
    // Stryker disable next-line EqualityOperator: startBlock(1) draws no random number and changes no field
    if (every > 1) this.startBlock(every);
  }

  /** Called after a timed operation that took `durationMillis`: places the next timed operation. */
  timed(durationMillis: number): void {
    const every = this.every;
    // Stryker disable next-line ConditionalExpression: startBlock(1) sets the values the fields already have
    if (every === 1) return;
    if (every !== BUDGET) {
      this.startBlock(every);
      return;
    }
    this.mean += (durationMillis - this.mean) * (this.mean === 0 ? 1 : MEAN_STEP);
    const cost = this.cost as ClockCost;
    refineClockCost(cost, this.clock);
    // A timed operation's reads over the clock's share: a mean this long or longer is always timed; one in N of
    // shorter ones keeps the reads at the share of the mean.
    const alwaysTimed = (READS_PER_TIMED * cost.perRead) / CLOCK_SHARE;
    const size = this.mean >= alwaysTimed ? 1 : Math.min(MAX_WEIGHT, Math.ceil(alwaysTimed / this.mean));
    this.startBlock(size);
  }

  /** The operations left in the current block, then a block of `size` with its timed operation at random. */
  private startBlock(size: number): void {
    const place = size === 1 ? 0 : Math.floor(Math.random() * size);
    this.untimed = this.rest + place;
    this.rest = size - 1 - place;
    this.weight = size;
  }
}
