import { readFileSync } from 'node:fs';
import { expect } from 'vitest';

/** The codes of the table in docs/errors.md: the one list a program may rely on. */
export const DOCUMENTED_CODES: readonly string[] = [
  ...readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8').matchAll(
    /^\| `(BACKUPSTATS_[A-Z_]+)` +\|/gm,
  ),
].map((match) => match[1] as string);

/** Asserts that `error` is an Error of the library carrying a documented code (that one, when given). */
export function expectDocumentedCode(error: unknown, code?: string): void {
  expect(error).toBeInstanceOf(Error);
  const actual = (error as { code?: unknown }).code;
  expect(DOCUMENTED_CODES, `${String((error as Error).message)} has code ${String(actual)}`).toContain(actual);
  if (code !== undefined) expect(actual).toBe(code);
}

/** What `fn` throws (fails the test when it throws nothing). */
export function thrownBy(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}
