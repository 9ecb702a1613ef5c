import { diag } from '@opentelemetry/api';

// The messages of set-up and of the end of the process. Each is reported when it happens, which is once per
// shutdown or signal, so they need no memory of having reported them.

/** A signal's shutdown reached its deadline while other listeners kept the process alive. */
// Stryker disable next-line BlockStatement: reached only in child processes, by test/exit/signals.test.ts
export function signalDeadlinePassed(signal: string, deadlineMillis: number): void {
  diag.warn(
    // Stryker disable next-line StringLiteral: reached only in child processes, by test/exit/signals.test.ts
    `backupstats: ${signal}: the process was still running ${deadlineMillis} ms after the signal; ending it by ${signal}`,
  );
}

/** A shutdown at the end of the process (`at exit` or `before exit`) did not finish within its deadline. */
export function shutdownLate(when: 'at exit' | 'before exit', timeoutMillis: number): void {
  diag.error(
    // The 'at exit' side is reached only in child processes (test/exit/shutdown-on-exit.test.ts), outside the
    // mutation run; not disabled, so that the mutants of the 'before exit' side stay tested.
    `backupstats: ${when === 'at exit' ? 'a shutdown at exit' : 'shutdown before exit'} did not finish within ${timeoutMillis} ms; the process ends without it`,
  );
}

/** A shutdown at the end of the process failed. */
export function shutdownFailed(when: 'at exit' | 'before exit', error: unknown): void {
  diag.error(`backupstats: shutdown ${when} failed`, error);
}

/** The Prometheus endpoint closed connections whose scrape was still being answered at the deadline. */
// Stryker disable next-line BlockStatement: reached only by test/exit/prometheus.test.ts (a 40 MB scrape)
export function scrapesCut(count: number): void {
  diag.warn(
    // Stryker disable next-line StringLiteral: reached only by test/exit/prometheus.test.ts (a 40 MB scrape)
    `backupstats: the Prometheus endpoint cut ${count} scrape(s) still being answered when the shutdown's deadline passed`,
  );
}

/**
 * The Pushgateway refused a push (a 4xx answer, such as metrics inconsistent with those of another group). `answer`
 * is its body, already shortened; the exporter reports each status once until a push is accepted again.
 */
export function pushRefused(where: string, status: string, answer: string): void {
  diag.error(
    `backupstats: the Pushgateway refused the push to ${where} (${status}): ${JSON.stringify(answer)}; that push is dropped, the job goes on and the next push is sent on the export interval`,
  );
}

/**
 * The textfile exporter could not write its file (`reason` is the system's error). Said once until a write
 * succeeds again; node_exporter serves the previous complete file meanwhile.
 */
export function textfileNotWritten(path: string, reason: string): void {
  diag.error(
    `backupstats: the textfile exporter could not write ${path}: ${reason}; node_exporter serves the previous file, the job goes on and the next export tries again`,
  );
}

/** The textfile exporter does not write, since another file of the directory holds the same job's series. */
export function textfileRefused(sentence: string): void {
  diag.error(`${sentence}; nothing is written to the file`);
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

/** The report page `BACKUPSTATS_REPORT_PATH` asks for could not be written at shutdown. */
export function reportNotWritten(path: string, error: unknown, quiet: boolean): void {
  reportLoss(`backupstats: the report ${path} (BACKUPSTATS_REPORT_PATH) was not written: ${String(error)}`, quiet);
}

/**
 * An exporter made in code (`createPushgatewayExporter`, `createTextfileExporter`) cannot export: the optional
 * peer it needs is not installed. `sentence` names it with the `npm install` line; reported once per exporter, at its
 * first export, since every export fails with it and would otherwise be heard by nobody.
 */
export function peerMissing(sentence: string): void {
  // Stryker disable next-line BooleanLiteral: without a logger both values write the same sentence once to stderr
  reportLoss(sentence, false);
}
