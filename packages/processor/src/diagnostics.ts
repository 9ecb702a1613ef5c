import { diag } from '@opentelemetry/api';

/**
 * Reports each kind of misuse once through OpenTelemetry's `diag`, so that a loop recording bad values
 * does not flood the log; the self-metrics carry the counts.
 */
export class Diagnostics {
  private invalidReported = false;
  private closedReported = false;

  invalidMeasurement(family: string): void {
    if (this.invalidReported) return;
    this.invalidReported = true;
    diag.warn(
      `backupstats: dropped an invalid ${family} measurement (bytes and durations must be finite numbers of 0 or more); ` +
        'further ones are counted in backupstats.invalid_measurements without a message',
    );
  }

  recordedAfterShutdown(family: string): void {
    if (this.closedReported) return;
    this.closedReported = true;
    diag.warn(`backupstats: a ${family} measurement was recorded after shutdown() and is ignored, as are any later ones`);
  }
}
