import { DiagConsoleLogger, DiagLogLevel, diag } from '@opentelemetry/api';
import { ERROR_CODES, notAcceptedArgument } from '../../base/errors.js';
import { hasDiagLogger } from '../../diagnostics/messages.js';
import { type Env, readBoolean, readChoice } from './env.js';

/** `OTEL_LOG_LEVEL` values, as the OpenTelemetry SDKs read them (any case). */
const LEVELS = ['none', 'error', 'warn', 'info', 'debug', 'verbose', 'all'] as const;

const DIAG_LEVELS: Readonly<Record<(typeof LEVELS)[number], DiagLogLevel>> = {
  none: DiagLogLevel.NONE,
  error: DiagLogLevel.ERROR,
  warn: DiagLogLevel.WARN,
  info: DiagLogLevel.INFO,
  debug: DiagLogLevel.DEBUG,
  verbose: DiagLogLevel.VERBOSE,
  all: DiagLogLevel.ALL,
};

/** How set-up speaks: the diag logger it installs, and whether it may write to stderr when none is set. */
export interface LogSettings {
  /** From `OTEL_LOG_LEVEL`; undefined when it is unset. */
  readonly logLevel: DiagLogLevel | undefined;
  /** `quiet` option, else `BACKUPSTATS_QUIET`: never write to stderr by itself. */
  readonly quiet: boolean;
}

/** Reads `OTEL_LOG_LEVEL` and the `quiet` option or `BACKUPSTATS_QUIET`. */
export function readLogSettings(env: Env, quietOption: boolean | undefined): LogSettings {
  if (quietOption !== undefined && typeof quietOption !== 'boolean') {
    throw notAcceptedArgument(ERROR_CODES.INVALID_OPTION, 'option', 'quiet', quietOption, 'true or false');
  }
  const level = readChoice(env, 'OTEL_LOG_LEVEL', LEVELS);
  return {
    logLevel: level === undefined ? undefined : DIAG_LEVELS[level],
    quiet: quietOption ?? readBoolean(env, 'BACKUPSTATS_QUIET') ?? false,
  };
}

/**
 * Installs a console diag logger at `OTEL_LOG_LEVEL`, as the OpenTelemetry SDKs do, unless the application has set
 * a logger of its own (its choice wins).
 */
export function installLogger(settings: LogSettings): void {
  if (settings.logLevel === undefined || hasDiagLogger()) return;
  diag.setLogger(new DiagConsoleLogger(), { logLevel: settings.logLevel, suppressOverrideMessage: true });
}
