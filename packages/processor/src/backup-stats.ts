import { metrics } from '@opentelemetry/api';
import { Diagnostics } from './diagnostics.js';
import { FamilyRegistry } from './family-registry.js';
import { familySpec, INSTRUMENT_NAME } from './naming.js';
import { type BackupStatsOptions, checkMetricName, resolveOptions } from './options.js';
import { type Member, selfMetricsOf } from './self-metrics.js';
import type { BackupStats } from './stats.js';
import { METER_NAME, VERSION } from './version.js';

/**
 * Creates backup and restore stats whose measurements are aggregated in process and added to OpenTelemetry
 * counters on a timer, on {@link BackupStats.flush}, before every collection by a MetricReader, and on
 * {@link BackupStats.shutdown}.
 *
 * @throws TypeError naming the option, its value and what is accepted, when an option is invalid.
 */
export function createBackupStats(options: BackupStatsOptions = {}): BackupStats {
  const resolved = resolveOptions(options);
  const provider = options.meterProvider ?? metrics.getMeterProvider();
  const meter = provider.getMeter(METER_NAME, VERSION);
  const diagnostics = new Diagnostics();
  const direct = resolved.flushIntervalMillis === 0;

  const families = (['backup', 'restore'] as const).map((family) => {
    const spec = familySpec(resolved.naming, family, resolved.metricPrefix);
    for (const counter of [spec.operations, spec.bytes, spec.time]) {
      checkMetricName(counter.name, resolved.metricPrefix, INSTRUMENT_NAME);
    }
    return new FamilyRegistry(family, meter, spec, resolved.maxScopes, direct, diagnostics);
  }) as [FamilyRegistry, FamilyRegistry];
  const [backup, restore] = families;

  // Every family is flushed even when the other one's instruments throw; the first error is thrown after.
  const flush = (): void => {
    let failure: { error: unknown } | undefined;
    for (const registry of families) {
      try {
        registry.flush();
      } catch (error) {
        failure ??= { error };
      }
    }
    if (failure !== undefined) throw failure.error;
    diagnostics.flushSucceeded();
  };
  // The automatic triggers (timer, collection) report a failure through diag instead: an exception escaping a
  // timer would end the user's process, and one escaping a callback would be the SDK's to log, once per export.
  const flushReporting = (): void => {
    try {
      flush();
    } catch (error) {
      diagnostics.flushFailed(error);
    }
  };

  const selfMetrics = selfMetricsOf(provider, meter);
  const member: Member = { families, flushBeforeCollection: flushReporting };
  selfMetrics.join(member);

  let timer: NodeJS.Timeout | undefined;
  if (!direct) {
    timer = setInterval(flushReporting, resolved.flushIntervalMillis);
    // A backup job must be free to end: the timer never holds the event loop open.
    timer.unref();
  }

  // Closes everything even when an instrument or the Meter throws, and reports the first error by rejecting.
  const close = (): Promise<void> => {
    if (timer !== undefined) clearInterval(timer);
    let failure: { error: unknown } | undefined;
    const attempt = (step: () => void): void => {
      try {
        step();
      } catch (error) {
        failure ??= { error };
      }
    };
    attempt(() => backup.close());
    attempt(() => restore.close());
    attempt(() => selfMetrics.leave(member));
    return failure === undefined ? Promise.resolve() : Promise.reject(failure.error);
  };
  let closing: Promise<void> | undefined;
  return {
    backup: backup.root,
    restore: restore.root,
    flush,
    shutdown(): Promise<void> {
      closing ??= close();
      return closing;
    },
  };
}
