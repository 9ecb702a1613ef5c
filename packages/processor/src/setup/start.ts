import type { MeterProvider } from '@opentelemetry/api';
import type { WorkerLinkOptions } from '../api/link-types.js';
import type { BackupStats } from '../api/stats.js';
import { METER_NAME } from '../api/version.js';
import { ERROR_CODES, notAccepted } from '../base/errors.js';
import { missingPeer, sdkLineOf } from '../base/missing-peer.js';
import { givenProviderFlushLate, providerShutdownLate, undelivered } from '../diagnostics/messages.js';
import { cardinalityLimitFor } from '../family/family-registry.js';
import { openBackupStats } from '../instance/backup-stats.js';
import { noopStats } from '../instance/null-stats.js';
import { resolveOptions } from '../instance/options.js';
import { attachTimeline, timelineOf } from '../timeline/stats-timeline.js';
import { DEFAULT_EXPORT_TIMEOUT_MILLIS, SHUTDOWN_MARGIN_MILLIS } from './env/defaults.js';
import type { Env } from './env/env.js';
import { readExportSettings } from './env/export-settings.js';
import { installLogger, readLogSettings } from './env/log-settings.js';
import { readReportPath } from './env/report-settings.js';
import { readDisabled, readStatsVariables } from './env/stats-variables.js';
import { LATE, within } from './exit/exit-coordinator.js';
import { buildReaders, buildResource, type Readers } from './export/readers.js';
import { writeReportAtShutdown } from './report-at-shutdown.js';
import { checkStartOptions, type StartBackupStatsOptions } from './start-options.js';

/** Stats started by {@link startBackupStats}, with the controls of the provider behind them. */
export interface StartedBackupStats extends BackupStats {
  /** The MeterProvider that was built or given; undefined when disabled. */
  readonly meterProvider: MeterProvider | undefined;
  /** Adds pending measurements to the instruments, then makes every reader export now (a no-op for Prometheus, which is pulled). */
  forceFlush(): Promise<void>;
  /**
   * Flushes, exports one last time and shuts down the provider that was built (closing the Prometheus endpoint).
   * A provider that was given is only flushed, never shut down. Calling it again returns the same promise.
   *
   * It has a deadline, whatever the backend does: after `OTEL_METRIC_EXPORT_TIMEOUT` (30 s for a given
   * provider) it gives up on what is still under way, reports through the OpenTelemetry diag logger which exporter
   * did not deliver what, and resolves. A backend that fails or does not answer never makes it reject.
   */
  shutdown(): Promise<void>;
  /**
   * The longest {@link shutdown} takes: its deadline plus a margin of one second. {@link shutdownOnExit} and
   * {@link exitAfterShutdown} end the process after this long at the latest.
   */
  readonly shutdownTimeoutMillis: number;
}

/**
 * Builds a MeterProvider with the readers and exporters that the environment asks for (OpenTelemetry's `OTEL_*`
 * variables with their specification defaults, and the library's `BACKUPSTATS_*`), creates the backup and
 * restore stats on it and returns both. Exporter packages are optional peer dependencies, imported only when a
 * variable selects them. Resolves when every endpoint listens.
 *
 * @throws (rejects) TypeError naming the variable, its value and what is accepted, for any invalid variable or
 *   option; Error when a needed package is missing or the Prometheus endpoint cannot listen.
 */
export async function startBackupStats(given?: StartBackupStatsOptions): Promise<StartedBackupStats> {
  const options = checkStartOptions(given);
  const env: Env = options.env ?? process.env;
  if (readDisabled(env, options.disabled)) return disabledStats();
  const log = readLogSettings(env, options.quiet);
  installLogger(log);
  // Most likely `sdk.meterProvider` of a NodeSDK, which does not exist: building a provider here would be a second
  // one, whose exports the application's own readers never see.
  if ('meterProvider' in options && options.meterProvider === undefined) {
    throw notAccepted(
      ERROR_CODES.INVALID_OPTION,
      'option meterProvider',
      'undefined',
      'a MeterProvider (with the OpenTelemetry NodeSDK, metrics.getMeterProvider() from @opentelemetry/api after sdk.start(): NodeSDK has no meterProvider property), or no meterProvider option, to build a provider from the environment',
    );
  }
  // Every option is checked here, once, before anything is built: a bad one leaves nothing behind, and its error
  // names the option in code or the variable that set it.
  const variables = readStatsVariables(env, options);
  const resolved = { ...resolveOptions(variables.options, variables.sources), quiet: log.quiet };
  const reportPath = readReportPath(env);

  if (options.meterProvider !== undefined) {
    if (options.readers !== undefined && options.readers.length > 0) {
      throw notAccepted(
        ERROR_CODES.INVALID_OPTION,
        'option readers',
        options.readers.length === 1 ? '1 reader' : `${options.readers.length} readers`,
        'readers only when startBackupStats builds the provider (add them to your own provider instead)',
        'set together with meterProvider',
      );
    }
    const provider = options.meterProvider;
    const stats = openBackupStats(resolved);
    const deadline = DEFAULT_EXPORT_TIMEOUT_MILLIS;
    return started(stats, provider, deadline, async () => {
      const closed = await settle(stats.shutdown());
      await writeReportAtShutdown(stats, reportPath, log.quiet);
      if ((await within(forceFlushIfAble(provider), deadline)) === LATE) {
        givenProviderFlushLate(deadline, log.quiet);
      }
      if (closed !== undefined) throw closed.error;
    });
  }

  const settings = readExportSettings(env);
  // Without an SDK, the hint names the line that fits the running Node.js.
  const [sdk, resources] = await Promise.all([
    import('@opentelemetry/sdk-metrics').catch(
      missingPeer('@opentelemetry/sdk-metrics', 'startBackupStats', sdkLineOf(undefined)),
    ),
    import('@opentelemetry/resources').catch(
      missingPeer('@opentelemetry/resources', 'startBackupStats', sdkLineOf(undefined)),
    ),
  ]);
  // The exporters must come from the installed SDK's line, whatever the Node.js.
  const line = sdkLineOf(String(resources.defaultResource().attributes['telemetry.sdk.version']));
  const resource = buildResource(resources, settings.resourceAttributes);
  const built = await buildReaders(settings, sdk, line, resource.attributes);
  const provider = new sdk.MeterProvider({
    resource,
    readers: [...built.readers, ...(options.readers ?? [])],
    views: [{ meterName: METER_NAME, aggregationCardinalityLimit: cardinalityLimitFor(resolved.maxScopes) }],
  });
  let stats: BackupStats | undefined;
  try {
    stats = openBackupStats({
      ...resolved,
      meterProvider: provider,
      // The producers of the readers built here, and those the caller made for readers of its own.
      histogramProducers: [...built.producers, ...resolved.histogramProducers],
    });
    await built.listen();
  } catch (error) {
    await stats?.shutdown();
    await provider.shutdown().catch(() => {});
    await built.close(0);
    throw error;
  }
  const owned = stats;
  const deadline = settings.timeoutMillis;
  return started(owned, provider, deadline + SHUTDOWN_MARGIN_MILLIS, async () => {
    const closed = await settle(owned.shutdown());
    await writeReportAtShutdown(owned, reportPath, log.quiet);
    await shutdownBuilt(provider, built, deadline, log.quiet);
    if (closed !== undefined) throw closed.error;
  });
}

/**
 * Undefined once `closing` resolved, else its error. The stats' shutdown rejects when an instrument failed (what
 * it did not take is lost and reported through diag); the provider is still shut down and exports what it holds.
 */
function settle(closing: Promise<void>): Promise<{ error: unknown } | undefined> {
  return closing.then(
    () => undefined,
    (error: unknown) => ({ error }),
  );
}

/**
 * Shuts down a provider built here within `deadline`: the provider's shutdown collects and exports one last
 * time and stops the readers, while the endpoints close. What is still under way at the deadline is left
 * behind (the exporters' own timeouts are no longer than the deadline, so it ends by itself) and reported.
 */
async function shutdownBuilt(
  provider: { shutdown(): Promise<void> },
  built: Readers,
  deadline: number,
  quiet: boolean,
): Promise<void> {
  const [outcome] = await Promise.all([within(provider.shutdown(), deadline), built.close(deadline)]);
  let reported = false;
  for (const delivery of built.deliveries) {
    const sentence = delivery.undelivered(deadline);
    if (sentence === undefined) continue;
    undelivered(sentence, quiet);
    reported = true;
  }
  if (outcome === LATE && !reported) {
    // A reader given in `readers` (or the SDK itself) held the shutdown: no exporter of ours is to blame.
    providerShutdownLate(deadline, quiet);
  }
}

function started(
  stats: BackupStats,
  provider: MeterProvider,
  shutdownTimeoutMillis: number,
  close: () => Promise<void>,
): StartedBackupStats {
  let closing: Promise<void> | undefined;
  const result: StartedBackupStats = Object.freeze({
    backup: stats.backup,
    restore: stats.restore,
    verify: stats.verify,
    prune: stats.prune,
    meterProvider: provider,
    shutdownTimeoutMillis,
    flush: () => stats.flush(),
    workerLink: (options?: WorkerLinkOptions) => stats.workerLink(options),
    async forceFlush() {
      stats.flush();
      await forceFlushIfAble(provider);
    },
    shutdown() {
      closing ??= close();
      return closing;
    },
  });
  // `backupstats/report` reads the same timeline through either object.
  const timeline = timelineOf(stats);
  if (timeline !== undefined) attachTimeline(result, timeline);
  return result;
}

function disabledStats(): StartedBackupStats {
  const { backup, restore, verify, prune, flush, shutdown, workerLink } = noopStats;
  return Object.freeze({
    backup,
    restore,
    verify,
    prune,
    flush,
    shutdown,
    workerLink,
    meterProvider: undefined,
    shutdownTimeoutMillis: SHUTDOWN_MARGIN_MILLIS,
    forceFlush: () => Promise.resolve(),
  });
}

/** The API's MeterProvider has no forceFlush; the SDK's (and NodeSDK's) has. */
async function forceFlushIfAble(provider: MeterProvider): Promise<void> {
  const flushable = provider as { forceFlush?: unknown };
  if (typeof flushable.forceFlush === 'function') await (flushable.forceFlush as () => Promise<void>).call(provider);
}
