/**
 * Returns once the wall clock, in whole milliseconds, has passed `millis`: a wait of at most a millisecond, with no
 * timer (a test's fake timers would hold it). It gives up on a wall clock that has not passed `millis` after 2 ms of
 * the monotonic clock (a fake Date, or a clock set back), or when neither clock moved over a thousand reads (both
 * fake): a wall clock read a thousand times takes tens of microseconds. The monotonic clock it reads is
 * `process.hrtime`, not `performance.now`, which stays the clock of the measurements alone.
 *
 * The OpenTelemetry SDK reads the wall clock in whole milliseconds, both for a series' start (its first add in a
 * reader's interval) and for a collection's time. Collections run in a task of their own, so a caller that starts a
 * series and then waits here cannot have it collected in that series' millisecond: its point starts before it ends.
 */
export function waitPastMillisecond(millis: number): void {
  let startedAt: bigint | undefined;
  for (let reads = 1; Date.now() <= millis; reads++) {
    if (reads % 1024 !== 0) continue;
    const now = process.hrtime.bigint();
    startedAt ??= now;
    const elapsed = now - startedAt;
    if (reads > 1024 && (elapsed === 0n || elapsed > 2_000_000n)) return;
  }
}
