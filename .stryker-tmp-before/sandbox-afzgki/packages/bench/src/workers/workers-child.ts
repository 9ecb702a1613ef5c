// @ts-nocheck
// A worker thread of the workers benchmark: connects to the link in workerData and answers each message: "time"
// (the record loop on a held handle, the same as the main thread's), or "dirty" (one record on each of its scopes).
import { parentPort, workerData } from 'node:worker_threads';
import { connectBackupStats } from 'backupstats/worker';
import { timeRecords } from './record-loop.js';

const data = workerData as { link: Parameters<typeof connectBackupStats>[0]; scopes: number; prefix: string };
const stats = connectBackupStats(data.link);
const held = stats.backup.scope({
  component: 'BackupEngine',
  implementation: 'Builtin',
  operation: 'Compressor:Write',
});
const scopes = Array.from({ length: data.scopes }, (_, i) => stats.backup.scope({ operation: `${data.prefix}-${i}` }));
const port = parentPort as NonNullable<typeof parentPort>;
port.on('message', (task: { kind: 'time'; records: number; samples: number } | { kind: 'dirty' }) => {
  if (task.kind === 'time') {
    port.postMessage(timeRecords(held, task.records, task.samples));
    return;
  }
  for (const scope of scopes) scope.timedIncrementBytes(4096, 0.5);
  port.postMessage(0);
});
port.postMessage('ready');
