// @ts-nocheck
import type { Stats } from 'backupstats';

/** Inputs cycle through this many precomputed values, so the timed loop only reads arrays. */
const INPUTS = 4096;
const MASK = INPUTS - 1;

/**
 * The median cost of one `timedIncrementBytes` on a held handle, in ns: `samples` timed inner loops of `records`
 * records each, after a warm-up. The same function times the main thread and a worker, side by side.
 */
export function timeRecords(handle: Stats, records: number, samples: number): number {
  const bytes = Array.from({ length: INPUTS }, (_, i) => 1 + ((i * 7919) % 65_536));
  const durations = Array.from({ length: INPUTS }, (_, i) => 0.001 + ((i * 104_729) % 1000) / 1000);
  const loop = (): void => {
    for (let i = 0; i < records; i++)
      handle.timedIncrementBytes(bytes[i & MASK] as number, durations[i & MASK] as number);
  };
  for (let i = 0; i < Math.max(3, samples / 3); i++) loop();
  const perRecord: number[] = [];
  for (let s = 0; s < samples; s++) {
    const start = process.hrtime.bigint();
    loop();
    perRecord.push(Number(process.hrtime.bigint() - start) / records);
  }
  perRecord.sort((a, b) => a - b);
  return perRecord[perRecord.length >> 1] as number;
}
