/** Longest delay `setTimeout` and `setInterval` honour (2^31 - 1 ms); a longer one fires at once. */
export const MAX_TIMER_MILLIS = 2_147_483_647;

/** The integers an option or variable accepts, and what they count. */
export interface IntegerRule {
  readonly min: number;
  /** `Number.MAX_SAFE_INTEGER` for no bound of its own. */
  readonly max: number;
  readonly note: string;
}

/** True for an integer within the rule's bounds (never for text, NaN or an infinity). */
export function isIntegerIn(value: unknown, rule: IntegerRule): value is number {
  return Number.isInteger(value) && (value as number) >= rule.min && (value as number) <= rule.max;
}

/** What the rule accepts, for a message. */
export function integerText(rule: IntegerRule): string {
  const range =
    rule.max === Number.MAX_SAFE_INTEGER
      ? `an integer of ${rule.min} or more`
      : `an integer from ${rule.min} to ${rule.max}`;
  return `${range} (${rule.note})`;
}

/** A timer's delay or deadline. */
export const TIMER_MILLIS: IntegerRule = { min: 1, max: MAX_TIMER_MILLIS, note: 'milliseconds' };
