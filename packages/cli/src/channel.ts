// The local channel between `backupstats run` and the meters of its command: `run` listens on a Unix socket and
// passes its path down in BACKUPSTATS_RUN_SOCKET; every meter connects and sends one line of JSON per flush.
// A line carries the meter's cumulative numbers, never a difference, so a line lost with a killed meter costs only
// what changed since its previous line, and a line read twice (or late) adds nothing.

/** The variable through which `run` tells its command's meters where to report. */
export const RUN_SOCKET_VARIABLE = 'BACKUPSTATS_RUN_SOCKET';

/** What one meter has moved so far; every number only grows. */
export interface MeterReport {
  /** The meter's own id, unique within the run: its pid and start time. */
  readonly id: string;
  /** Its `--operation`: the name of the stage that writes into it. */
  readonly operation: string;
  /** Its `--label` values, on top of the run's labels. */
  readonly component?: string | undefined;
  readonly implementation?: string | undefined;
  /** Unix time in ms when its first byte came in; null before. It orders the meters along the pipeline. */
  readonly firstByteAt: number | null;
  /** Unix time in ms of this report: the numbers are as they were then. */
  readonly at: number;
  /** Unix time in ms when it started: the order of meters that moved nothing. */
  readonly startedAt: number;
  /** Reads that returned data, and the bytes they returned. */
  readonly reads: number;
  readonly bytesIn: number;
  /** Milliseconds spent waiting for input: the stage before it was slower. */
  readonly inputWaitMs: number;
  /** Writes, the bytes written, and the milliseconds spent waiting for them: the stage after it was slower. */
  readonly writes: number;
  readonly bytesOut: number;
  readonly outputWaitMs: number;
  /** True on its last line. */
  readonly done: boolean;
}

/** One line of the channel. */
export function encodeReport(report: MeterReport): string {
  return `${JSON.stringify(report)}\n`;
}

const NUMBERS = [
  'at',
  'firstByteAt',
  'startedAt',
  'reads',
  'bytesIn',
  'inputWaitMs',
  'writes',
  'bytesOut',
  'outputWaitMs',
];

/** A line read from the channel, or undefined for anything that is not a whole, sane report. */
export function decodeReport(line: string): MeterReport | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const report = value as Record<string, unknown>;
  if (typeof report.id !== 'string' || typeof report.operation !== 'string' || report.operation === '')
    return undefined;
  for (const name of NUMBERS) {
    const number = report[name];
    if (name === 'firstByteAt' && number === null) continue;
    if (typeof number !== 'number' || !Number.isFinite(number) || number < 0) return undefined;
  }
  for (const name of ['component', 'implementation']) {
    if (report[name] !== undefined && typeof report[name] !== 'string') return undefined;
  }
  if (typeof report.done !== 'boolean') return undefined;
  return report as unknown as MeterReport;
}
