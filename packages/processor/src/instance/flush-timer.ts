import { noop } from '../base/noop.js';
import { DEFAULT_FLUSH_INTERVAL_MILLIS } from './options.js';
import type { ProviderBinding } from './provider-binding.js';
import type { StatsSharedState } from './stats-shared-state.js';

/** Stops a {@link startFlushTimer} timer. */
export type StopTimer = () => void;

/**
 * Starts the timer of one stats instance: every `flushIntervalMillis` it looks for a provider if the stats have
 * none yet, and flushes once they have one. Unthrottled stats (`flushIntervalMillis: 0`) record straight into
 * their instruments and need the timer only to find a global provider registered after them, every default
 * interval until then. The timer is unref'd: a backup job must be free to end.
 */
export function startFlushTimer(
  flushIntervalMillis: number,
  binding: ProviderBinding,
  state: StatsSharedState,
): StopTimer {
  const direct = flushIntervalMillis === 0;
  if (direct && binding.bound) return noop;
  const timer = setInterval(
    () => {
      if (!binding.follow()) return;
      state.flushReporting();
      if (direct) clearInterval(timer);
    },
    direct ? DEFAULT_FLUSH_INTERVAL_MILLIS : flushIntervalMillis,
  );
  timer.unref();
  return () => clearInterval(timer);
}
