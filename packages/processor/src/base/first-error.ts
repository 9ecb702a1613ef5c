/**
 * The first error of steps that must all run: closing or flushing one part must not be skipped because another
 * part threw, yet the caller must still learn that something failed. Each step runs; the first error is kept.
 */
export class FirstError {
  private first: { readonly error: unknown } | undefined;

  /** Runs `step`; returns false, keeping the error if it is the first, when it throws. */
  attempt(step: () => void): boolean {
    try {
      step();
      return true;
    } catch (error) {
      this.keep(error);
      return false;
    }
  }

  /** Keeps `error` if it is the first. */
  keep(error: unknown): void {
    this.first ??= { error };
  }

  /** The first error kept (boxed, since anything can be thrown, `undefined` included), or undefined. */
  get failure(): { readonly error: unknown } | undefined {
    return this.first;
  }

  /** Throws the first error kept, if any. */
  throwIfAny(): void {
    if (this.first !== undefined) throw this.first.error;
  }

  /** A promise that rejects with the first error kept, or resolves when no step threw. */
  settle(): Promise<void> {
    return this.first === undefined ? Promise.resolve() : Promise.reject(this.first.error);
  }
}
