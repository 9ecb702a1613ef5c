/** Does nothing: what null objects are made of, and a callback's place-holder. */
export function noop(): void {}

/**
 * A run that records nothing: what null stats start, and stats already shut down. Typed by its shape (a `Run`
 * takes the same four calls) so that the floor imports nothing of the library.
 */
export const noopRun: {
  readonly succeed: () => void;
  readonly fail: () => void;
  readonly partial: () => void;
  readonly warn: () => void;
  readonly phase: () => void;
  readonly expectBytes: () => void;
} = Object.freeze({
  succeed: noop,
  fail: noop,
  partial: noop,
  warn: noop,
  phase: noop,
  expectBytes: noop,
});
