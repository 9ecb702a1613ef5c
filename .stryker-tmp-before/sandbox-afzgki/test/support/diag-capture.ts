// @ts-nocheck
import { type DiagLogger, DiagLogLevel, diag } from '@opentelemetry/api';

/** Captures OpenTelemetry `diag` warnings and errors (and info messages when asked) for the duration of a test. */
export interface DiagCapture {
  readonly messages: string[];
  restore(): void;
}

export function captureDiag(logLevel: DiagLogLevel.WARN | DiagLogLevel.INFO = DiagLogLevel.WARN): DiagCapture {
  const messages: string[] = [];
  const keep = (...args: unknown[]): void => {
    messages.push(args.map(String).join(' '));
  };
  const ignore = (): void => {};
  const logger: DiagLogger = { error: keep, warn: keep, info: keep, debug: ignore, verbose: ignore };
  diag.setLogger(logger, { logLevel, suppressOverrideMessage: true });
  return { messages, restore: () => diag.disable() };
}
