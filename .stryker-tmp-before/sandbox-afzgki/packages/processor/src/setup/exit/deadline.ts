/** What {@link within} resolves with when the deadline came first. */
// @ts-nocheck

export const LATE: unique symbol = Symbol('late');

/**
 * Settles as `work` does, or resolves {@link LATE} once `millis` have passed, whichever comes first. The timer is
 * ref'd on purpose: it keeps the process alive while `work` waits on handles that do not (unref'd sockets and
 * servers), and no longer than the deadline.
 */
export async function within<T>(work: Promise<T>, millis: number): Promise<T | typeof LATE> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<typeof LATE>((resolve) => {
    timer = setTimeout(() => resolve(LATE), millis);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
