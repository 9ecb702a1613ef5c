import { type ResolvedLabels, type ScopeLabels, UNSET } from '../api/labels.js';
import { describeValue, ERROR_CODES, notAccepted } from '../base/errors.js';

/** The labels of a handle no scope has narrowed. */
export const ROOT_LABELS: ResolvedLabels = Object.freeze({
  component: UNSET,
  implementation: UNSET,
  operation: UNSET,
});

/** The names {@link ScopeLabels} accepts. */
const LABEL_NAMES: readonly string[] = ['component', 'implementation', 'operation'];

/** Who hears of labels that cannot be right; each is reported once per stats instance. */
export interface LabelProblems {
  unknownLabel(name: string): void;
  labelNotAString(name: string, value: unknown): void;
}

/** What no one hears: labels merged where nobody listens (the test doubles). */
const UNHEARD: LabelProblems = { unknownLabel() {}, labelNotAString() {} };

function pick(name: string, current: string, given: unknown, problems: LabelProblems): string {
  if (given === undefined || given === null) return current;
  if (typeof given !== 'string') problems.labelNotAString(name, given);
  if (current !== UNSET || given === '') return current;
  return String(given);
}

/**
 * Applies `given` on top of `parent`, keeping every label the parent already set. A label name other than the
 * three, or a value that is not a string (recorded as its text), is reported to `problems`.
 *
 * @throws TypeError when `given` is not an object of labels (null, a number, a string, an array).
 */
export function mergeLabels(
  parent: ResolvedLabels,
  given: ScopeLabels | undefined,
  problems: LabelProblems = UNHEARD,
): ResolvedLabels {
  if (given === undefined) return parent;
  if (typeof given !== 'object' || given === null || Array.isArray(given)) {
    throw notAccepted(
      ERROR_CODES.INVALID_ARGUMENT,
      'scope labels',
      describeValue(given),
      'an object with component, implementation and operation, each a string (or left out)',
    );
  }
  for (const name in given) if (!LABEL_NAMES.includes(name)) problems.unknownLabel(name);
  return {
    component: pick('component', parent.component, given.component, problems),
    implementation: pick('implementation', parent.implementation, given.implementation, problems),
    operation: pick('operation', parent.operation, given.operation, problems),
  };
}

/**
 * A key unique to one combination of label values, whatever characters they hold: the lengths of the first two
 * come first, so no value can pass for a part of another.
 */
export function labelKey(labels: ResolvedLabels): string {
  const { component, implementation, operation } = labels;
  return `${component.length}:${implementation.length}:${component}${implementation}${operation}`;
}

/**
 * The longest label value a series takes, in UTF-16 code units (JavaScript's `length`: characters, for most text).
 * A label value is a name (`Source:Read`, `S3`), not data: a longer one is a mistake that would be written into every
 * export (a 1 MiB value made a 28 MiB textfile). A scope with a longer value records into the overflow series, on the
 * main thread and in a worker alike.
 */
export const MAX_LABEL_LENGTH = 256;

/** The name of the first label whose value is longer than {@link MAX_LABEL_LENGTH}, or undefined when none is. */
export function longLabel(labels: ResolvedLabels): keyof ResolvedLabels | undefined {
  if (labels.component.length > MAX_LABEL_LENGTH) return 'component';
  if (labels.implementation.length > MAX_LABEL_LENGTH) return 'implementation';
  if (labels.operation.length > MAX_LABEL_LENGTH) return 'operation';
  return undefined;
}
