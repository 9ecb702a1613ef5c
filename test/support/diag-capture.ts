import { type DiagLogger, DiagLogLevel, diag } from '@opentelemetry/api';

/** Captures OpenTelemetry `diag` warnings and errors for the duration of a test. */
export interface DiagCapture {
  readonly messages: string[];
  restore(): void;
}

export function captureDiag(): DiagCapture {
  const messages: string[] = [];
  const keep = (...args: unknown[]): void => {
    messages.push(args.map(String).join(' '));
  };
  const ignore = (): void => {};
  const logger: DiagLogger = { error: keep, warn: keep, info: ignore, debug: ignore, verbose: ignore };
  diag.setLogger(logger, { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true });
  return { messages, restore: () => diag.disable() };
}
