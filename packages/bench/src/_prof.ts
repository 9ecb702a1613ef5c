import { randomFillSync } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import { createBackupStats } from 'backupstats';
import { createOtelSetup } from './otel.js';
import { createStages } from './stages.js';
const [mode, chunkArg, mibArg, roundsArg] = process.argv.slice(2);
const chunk = Number(chunkArg) * 1024; const total = Number(mibArg) * 1024 * 1024;
const data = randomFillSync(Buffer.allocUnsafe(1 << 20));
for (let r = 0; r < Number(roundsArg ?? 1); r++) {
  for (const m of mode!.split(',')) {
    const otel = createOtelSetup();
    const stats = createBackupStats({ meterProvider: otel.provider });
    const b = stats.backup;
    const st = m === 'off' ? undefined : { source: b.scope({ operation: 'a' }), transform: b.scope({ operation: 'b' }), destination: b.scope({ operation: 'c' }) };
    const s = createStages(data, chunk, total, st);
    const t = performance.now(); const c0 = process.cpuUsage();
    await pipeline(s.source, s.transform, s.destination);
    const c = process.cpuUsage(c0); process.stdout.write(`${m} ${(performance.now() - t).toFixed(0)}/${((c.user + c.system) / 1000).toFixed(0)}  `);
    await stats.shutdown(); await otel.shutdown();
  }
  console.log();
}
