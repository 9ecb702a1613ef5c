// @ts-nocheck
// Preloaded into every demo run by the demo benchmark (`node --import`): prints the process's CPU time (user +
// system, all threads, zlib's included) on stderr as it exits, a cross-check less sensitive than wall time to
// other processes taking the cores. Plain JavaScript, so it loads without tsx.
import { writeSync } from 'node:fs';

process.on('exit', () => {
  const usage = process.cpuUsage();
  writeSync(2, `\nbench-cpu-ms ${(usage.user + usage.system) / 1000}\n`);
});
