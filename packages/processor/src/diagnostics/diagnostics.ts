import { diag } from '@opentelemetry/api';
import { hasDiagLogger } from './messages.js';

/** The kinds of problem reported once per instance (a failed flush: once per run of failures). */
type Kind =
  | 'invalid'
  | 'invalidPhase'
  | 'closed'
  | 'unknownReason'
  | 'unknownLabel'
  | 'labelType'
  | 'labelLength'
  | 'workerRun'
  | 'damagedPlace'
  | 'flushFailing';

/**
 * Reports each kind of misuse or failure once per stats instance through OpenTelemetry's `diag`, so that a loop
 * recording bad values or a timer meeting a broken instrument does not flood the log; the self-metrics carry the
 * counts. The messages of set-up, of the end of the process and of the Pushgateway are in messages.ts.
 * With no diag logger set (the default of `@opentelemetry/api`, and of `startBackupStats()` without
 * `OTEL_LOG_LEVEL`) a misuse would be heard by nobody: then it goes to stderr, unless `quiet`.
 */
export class Diagnostics {
  /** The kinds reported already. */
  private readonly said = new Set<Kind>();

  /** `quiet`: never write to stderr, whether or not a diag logger is set. */
  constructor(private readonly quiet = false) {}

  private misuse(sentence: string): void {
    if (hasDiagLogger()) diag.warn(sentence);
    else if (!this.quiet) process.stderr.write(`${sentence}\n`);
  }

  /** True the first time `kind` is met, which is when it is reported. */
  private first(kind: Kind): boolean {
    if (this.said.has(kind)) return false;
    this.said.add(kind);
    return true;
  }

  invalidMeasurement(family: string): void {
    // Stryker disable next-line StringLiteral: a kind is only a set key; the empty string is a key no other kind uses
    if (!this.first('invalid')) return;
    this.misuse(
      `backupstats: dropped an invalid ${family} measurement (bytes and durations must be numbers from 0 to Number.MAX_SAFE_INTEGER, and so must their sum pending until the next flush; a weight, a whole number from 0 to 65,536); ` +
        'further ones are counted in backupstats.invalid_measurements without a message',
    );
  }

  /**
   * A run phase name was dropped: not a string of 1 to `maxLength` characters, or past `maxPhases` distinct names
   * of a handle. Said apart from the invalid measurements, whose message speaks of bytes and durations.
   */
  invalidPhase(family: string, name: unknown, maxLength: number, maxPhases: number): void {
    if (!this.first('invalidPhase')) return;
    const shown =
      typeof name !== 'string'
        ? `a value of type ${name === null ? 'null' : typeof name}`
        : name.length > maxLength
          ? `${JSON.stringify(name.slice(0, maxLength))} (${name.length} characters)`
          : name.length === 0
            ? 'an empty name'
            : `${JSON.stringify(name)} (past the ${maxPhases} distinct names the handle keeps)`;
    this.misuse(
      `backupstats: dropped the ${family} run phase name ${shown}: a phase name is a string of 1 to ${maxLength} characters, of at most ${maxPhases} distinct ones per handle; ` +
        'further invalid phase names are counted in backupstats.invalid_measurements without a message',
    );
  }

  unknownLabel(name: string): void {
    // Stryker disable next-line StringLiteral: a kind is only a set key; the empty string is a key no other kind uses
    if (!this.first('unknownLabel')) return;
    this.misuse(
      `backupstats: scope() was given the label ${JSON.stringify(name.slice(0, 64))}, which is not one of component, implementation and operation; it is ignored, as are any later unknown labels`,
    );
  }

  labelNotAString(name: string, value: unknown): void {
    // Stryker disable next-line StringLiteral: a kind is only a set key; the empty string is a key no other kind uses
    if (!this.first('labelType')) return;
    this.misuse(
      `backupstats: scope() was given a ${name} label that is not a string but a value of type ${typeof value}; it is recorded as its text (${JSON.stringify(String(value).slice(0, 64))}), as are any later ones`,
    );
  }

  labelTooLong(name: string, length: number, limit: number): void {
    if (!this.first('labelLength')) return;
    this.misuse(
      `backupstats: scope() was given a value of ${length} characters for the ${name} label, longer than the ${limit} a label value may have; its records go to the overflow series (otel.metric.overflow=true), as do those of any later ones`,
    );
  }

  unknownRunFailure(reason: unknown): void {
    // Stryker disable next-line StringLiteral: a kind is only a set key; the empty string is a key no other kind uses
    if (!this.first('unknownReason')) return;
    const shown = typeof reason === 'string' ? JSON.stringify(reason.slice(0, 64)) : `a value of type ${typeof reason}`;
    this.misuse(
      `backupstats: a run's failure, partial end or warning gave the reason ${shown}, which is not one of RunFailure (interrupted, timeout, source, destination, corrupted, configuration, _OTHER); it is recorded as _OTHER, as are any later ones`,
    );
  }

  runStartedInWorker(): void {
    // Stryker disable next-line StringLiteral: a kind is only a set key; the empty string is a key no other kind uses
    if (!this.first('workerRun')) return;
    this.misuse(
      'backupstats: startRun() in a worker thread records nothing: a run is the whole job, recorded on the main thread (start it on the stats that made the link); records of operations work in the worker',
    );
  }

  damagedPlace(what: string): void {
    if (!this.first('damagedPlace')) return;
    this.misuse(
      `backupstats: the shared memory of a worker link holds ${what}, which no worker writes; that worker's place is no longer read (what was read of it before is kept), and the other workers' and this thread's records still export`,
    );
  }

  recordedAfterShutdown(family: string): void {
    // Stryker disable next-line StringLiteral: a kind is only a set key; the empty string is a key no other kind uses
    if (!this.first('closed')) return;
    this.misuse(
      `backupstats: a ${family} measurement was recorded after shutdown() and is ignored, as are any later ones`,
    );
  }

  flushFailed(error: unknown): void {
    // One message per run of failures: reported again after a flush that succeeded.
    if (!this.first('flushFailing')) return;
    diag.error(
      'backupstats: an OpenTelemetry instrument threw while measurements were added to it; what it did not take stays pending and is retried on the next flush',
      error,
    );
  }

  flushSucceeded(): void {
    this.said.delete('flushFailing');
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
