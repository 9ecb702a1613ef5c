import { diag } from '@opentelemetry/api';

/**
 * Reports each kind of misuse or failure once through OpenTelemetry's `diag`, so that a loop recording bad
 * values or a timer meeting a broken instrument does not flood the log; the self-metrics carry the counts.
 */
export class Diagnostics {
  private invalidReported = false;
  private closedReported = false;
  private unknownReasonReported = false;
  private unknownLabelReported = false;
  private labelTypeReported = false;
  private workerRunReported = false;
  /** True from a failed flush to the next one that succeeds: one message per run of failures. */
  private failing = false;

  invalidMeasurement(family: string): void {
    if (this.invalidReported) return;
    this.invalidReported = true;
    diag.warn(
      `backupstats: dropped an invalid ${family} measurement (bytes and durations must be numbers from 0 to Number.MAX_SAFE_INTEGER, and so must their sum pending until the next flush); ` +
        'further ones are counted in backupstats.invalid_measurements without a message',
    );
  }

  unknownLabel(name: string): void {
    if (this.unknownLabelReported) return;
    this.unknownLabelReported = true;
    diag.warn(
      `backupstats: scope() was given the label ${JSON.stringify(name.slice(0, 64))}, which is not one of component, implementation and operation; it is ignored, as are any later unknown labels`,
    );
  }

  labelNotAString(name: string, value: unknown): void {
    if (this.labelTypeReported) return;
    this.labelTypeReported = true;
    diag.warn(
      `backupstats: scope() was given a ${name} label that is not a string but a value of type ${typeof value}; it is recorded as its text (${JSON.stringify(String(value).slice(0, 64))}), as are any later ones`,
    );
  }

  unknownRunFailure(reason: unknown): void {
    if (this.unknownReasonReported) return;
    this.unknownReasonReported = true;
    const shown = typeof reason === 'string' ? JSON.stringify(reason.slice(0, 64)) : `a value of type ${typeof reason}`;
    diag.warn(
      `backupstats: a run failed with the reason ${shown}, which is not one of RunFailure (interrupted, timeout, source, destination, corrupted, configuration, _OTHER); it is recorded as _OTHER, as are any later ones`,
    );
  }

  runStartedInWorker(): void {
    if (this.workerRunReported) return;
    this.workerRunReported = true;
    diag.warn(
      'backupstats: startRun() in a worker thread records nothing: a run is the whole job, recorded on the main thread (start it on the stats that made the link); records of operations work in the worker',
    );
  }

  recordedAfterShutdown(family: string): void {
    if (this.closedReported) return;
    this.closedReported = true;
    diag.warn(
      `backupstats: a ${family} measurement was recorded after shutdown() and is ignored, as are any later ones`,
    );
  }

  flushFailed(error: unknown): void {
    if (this.failing) return;
    this.failing = true;
    diag.error(
      'backupstats: an OpenTelemetry instrument threw while measurements were added to it; what it did not take stays pending and is retried on the next flush',
      error,
    );
  }

  flushSucceeded(): void {
    this.failing = false;
  }

  waitingForGlobalProvider(): void {
    diag.info(
      'backupstats: no global MeterProvider is registered yet; measurements are kept and go to it once it is (looked for on every flush)',
    );
  }

  followedGlobalProvider(): void {
    diag.info(
      'backupstats: a global MeterProvider was registered after the stats were created; they export to it now, earlier measurements included',
    );
  }

  noopProviderGiven(): void {
    diag.warn(
      "backupstats: the meterProvider given is @opentelemetry/api's no-op provider (taken before an SDK registered?); nothing will be exported. " +
        'Pass the provider once the SDK has registered it (with the NodeSDK, metrics.getMeterProvider() after sdk.start()); ' +
        'createBackupStats() without meterProvider follows the global provider as soon as it is registered',
    );
  }

  neverExported(operations: number, runs: number): void {
    diag.warn(
      `backupstats: shutdown() before any global MeterProvider was registered: ${operations} operations and ${runs} runs recorded were never exported`,
    );
  }

  lostAtShutdown(family: string, scopes: number, error: unknown): void {
    diag.error(
      `backupstats: shutdown() could not add the pending ${family} measurements of ${scopes} scope(s) to the OpenTelemetry instruments; they are lost`,
      error,
    );
  }
}

// The messages of set-up and of the end of the process. Each is said when it happens, which is once per
// shutdown or signal, so they need no memory of having been said.

/** A signal's shutdown reached its deadline while other listeners kept the process alive. */
export function signalDeadlinePassed(signal: string, deadlineMillis: number): void {
  diag.warn(
    `backupstats: ${signal}: the process was still running ${deadlineMillis} ms after the signal; ending it by ${signal}`,
  );
}

/** A shutdown at the end of the process (`at exit` or `before exit`) did not finish within its deadline. */
export function shutdownLate(when: 'at exit' | 'before exit', timeoutMillis: number): void {
  diag.error(
    `backupstats: ${when === 'at exit' ? 'a shutdown at exit' : 'shutdown before exit'} did not finish within ${timeoutMillis} ms; the process ends without it`,
  );
}

/** A shutdown at the end of the process failed. */
export function shutdownFailed(when: 'at exit' | 'before exit', error: unknown): void {
  diag.error(`backupstats: shutdown ${when} failed`, error);
}

/** The Prometheus endpoint closed connections whose scrape was still being answered at the deadline. */
export function scrapesCut(count: number): void {
  diag.warn(
    `backupstats: the Prometheus endpoint cut ${count} scrape(s) still being answered when the shutdown's deadline passed`,
  );
}

/**
 * The Pushgateway refused a push (a 4xx answer, such as metrics inconsistent with those of another group). `answer`
 * is its body, already shortened; the exporter says each status once until a push is accepted again.
 */
export function pushRefused(where: string, status: string, answer: string): void {
  diag.error(
    `backupstats: the Pushgateway refused the push to ${where} (${status}): ${JSON.stringify(answer)}; that push is dropped, the job goes on and the next push is sent on the export interval`,
  );
}

// @opentelemetry/api keeps the registered diag logger on this global (one per major version) and has no getter.
const API_GLOBAL = Symbol.for('opentelemetry.js.api.1');

/** True when the application (or set-up, from `OTEL_LOG_LEVEL`) has registered a diag logger. */
export function hasDiagLogger(): boolean {
  const api = (globalThis as { [API_GLOBAL]?: { diag?: unknown } })[API_GLOBAL];
  return api?.diag !== undefined;
}

/**
 * Says that recorded numbers did not reach the backend. With no diag logger set, nobody would hear it and the
 * owner of a job would never learn that nothing was exported: then it goes to stderr, unless set-up is `quiet`.
 */
function reportLoss(sentence: string, quiet: boolean): void {
  if (hasDiagLogger()) diag.error(sentence);
  else if (!quiet) process.stderr.write(`${sentence}\n`);
}

/** A MeterProvider given to set-up did not finish its forceFlush within the deadline. */
export function givenProviderFlushLate(deadlineMillis: number, quiet: boolean): void {
  reportLoss(
    `backupstats: the given MeterProvider's forceFlush did not finish within ${deadlineMillis} ms; what it had not exported is lost`,
    quiet,
  );
}

/** What an exporter did not deliver at shutdown, as its delivery watch words it. */
export function undelivered(sentence: string, quiet: boolean): void {
  reportLoss(sentence, quiet);
}

/** The provider set-up built did not finish its shutdown within the deadline, and no exporter of ours is to blame. */
export function providerShutdownLate(deadlineMillis: number, quiet: boolean): void {
  reportLoss(
    `backupstats: the MeterProvider's shutdown did not finish within ${deadlineMillis} ms (OTEL_METRIC_EXPORT_TIMEOUT); it was left behind`,
    quiet,
  );
}

/** Options a function was given and does not know: said once per call, since a misspelt option does nothing. */
export function unknownOptions(fn: string, given: object, known: readonly string[]): void {
  const unknown = Object.keys(given).filter((name) => !known.includes(name));
  if (unknown.length === 0) return;
  const quoted = unknown.map((name) => JSON.stringify(name.slice(0, 64)));
  const names =
    quoted.length === 1
      ? `the option ${quoted[0]}; it is`
      : `the options ${quoted.slice(0, -1).join(', ')} and ${quoted.at(-1)}; they are`;
  diag.warn(`backupstats: ${fn} does not know ${names} ignored (known: ${known.join(', ')})`);
}

/** The report page `BACKUPSTATS_REPORT_PATH` asks for could not be written at shutdown. */
export function reportNotWritten(path: string, error: unknown, quiet: boolean): void {
  reportLoss(`backupstats: the report ${path} (BACKUPSTATS_REPORT_PATH) was not written: ${String(error)}`, quiet);
}
