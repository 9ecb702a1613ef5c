// @ts-nocheck
import { RunFailure, type RunFailureReason } from 'backupstats';
import { ExitCode, ToolError } from '../errors.js';

/**
 * Why a backup or restore run failed, from the error the tool explains: its exit code says what went wrong. The
 * storage is what a backup writes and what a restore reads, so an unreachable endpoint is the destination of the
 * one and the source of the other. Anything the tool does not explain is RunFailure.Other.
 */
export function runFailureReason(family: 'backup' | 'restore'): (error: unknown) => RunFailureReason {
  const storage = family === 'backup' ? RunFailure.Destination : RunFailure.Source;
  return (error) => {
    if (!(error instanceof ToolError)) return RunFailure.Other;
    switch (error.exitCode) {
      case ExitCode.Source:
        return RunFailure.Source;
      case ExitCode.Destination:
        return RunFailure.Destination;
      case ExitCode.Corrupted:
        return RunFailure.Corrupted;
      case ExitCode.StorageUnreachable:
        return storage;
      case ExitCode.Usage:
      case ExitCode.BucketMissing:
      case ExitCode.AccessDenied:
        return RunFailure.Configuration;
      default:
        return RunFailure.Other;
    }
  };
}
