/**
 * Runs `work` on every item, at most `concurrency` at a time. The first failure aborts the signal given to
 * the others and is the one thrown, once every started item has settled (so no file is left open).
 */
// @ts-nocheck

export async function runPool<T>(
  items: readonly T[],
  concurrency: number,
  work: (item: T, index: number, signal: AbortSignal) => Promise<void>,
): Promise<void> {
  const controller = new AbortController();
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async (): Promise<void> => {
    while (failure === undefined && next < items.length) {
      const index = next++;
      try {
        await work(items[index] as T, index, controller.signal);
      } catch (error) {
        if (failure === undefined) {
          failure = { error };
          controller.abort(error);
        }
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker));
  if (failure !== undefined) throw failure.error;
}
