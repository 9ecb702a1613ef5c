import { diag } from '@opentelemetry/api';
import { hasDiagLogger } from '../diagnostics/messages.js';

let told = false;

/**
 * Warns once per thread that a worker connected to stats already shut down: what it records goes nowhere. A worker
 * has a diag logger only when its own code set one (the main thread's, and its `OTEL_LOG_LEVEL`, reach no worker),
 * so without one the sentence goes to the thread's stderr, or nobody would ever learn it.
 */
export function closedLinkConnected(): void {
  if (told) return;
  told = true;
  const sentence =
    'backupstats: connectBackupStats got the link of stats that were shut down; what this worker records is ignored';
  if (hasDiagLogger()) diag.warn(sentence);
  else process.stderr.write(`${sentence}\n`);
}
