// @ts-nocheck
import { ExitCode, ToolError } from '../errors.js';

/** Says on stderr why the tool failed and returns the exit code: a ToolError's own, 1 for anything else. */
export function failed(error: unknown): number {
  if (error instanceof ToolError) {
    process.stderr.write(`backup-demo: error: ${error.message}\n`);
    return error.exitCode;
  }
  process.stderr.write(
    `backup-demo: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  return ExitCode.Unexpected;
}
