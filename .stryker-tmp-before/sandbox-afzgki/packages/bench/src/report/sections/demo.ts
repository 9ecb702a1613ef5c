// @ts-nocheck
import type { DemoResult } from '../../demo/demo.js';
import { spreadPercent } from '../../harness/sample.js';
import { fixed, percent, table } from '../format.js';

/** Section 5: the demo's backup into a folder, metrics on vs off. */
export function demoSection(demo: DemoResult): string[] {
  return demoTable('### 5. Demo backup, metrics on vs off (`BACKUPSTATS_DISABLED=true`)', demo);
}

/** Section 5b: the demo's backup with `--workers 2`, metrics on vs off. */
export function demoWorkersSection(demo: DemoResult): string[] {
  return demoTable(
    '### 5b. Demo backup with `--workers 2` (compression and checksums in worker threads), metrics on vs off',
    demo,
  );
}

/** Section 6: the demo's backup into S3, metrics on vs off, and where the S3 server runs. */
export function demoS3Section(demo: DemoResult): string[] {
  const out = demoTable('### 6. Demo backup to S3, metrics on vs off (`BACKUPSTATS_DISABLED=true`)', demo);
  if (demo.status === 'measured') {
    out.push(
      '',
      'The S3 server is s3rver, run by the benchmark process on 127.0.0.1 for both modes; each run backs up into a new prefix, emptied ' +
        'afterwards. Metrics on, every request attempt is metered by `meterS3Client` (AWS:Request:Send and the object operations).',
    );
  }
  return out;
}

function demoTable(title: string, demo: DemoResult): string[] {
  const out = ['', title, ''];
  if (demo.status !== 'measured') {
    out.push(`TODO: not measured: ${demo.reason}.`);
    return out;
  }
  out.push(
    table(
      [
        'metrics',
        'process wall ms (median)',
        'spread (max−min)/median',
        'overhead vs off, whole process (min … max)',
        'overhead vs off, start-up taken off (min … max)',
        'CPU-time overhead (median)',
      ],
      [
        ['off', fixed(demo.offMs.median, 0), `${fixed(spreadPercent(demo.offMs), 1)} %`, '–', '–', '–'],
        [
          'on',
          fixed(demo.onMs.median, 0),
          `${fixed(spreadPercent(demo.onMs), 1)} %`,
          `${percent(demo.overheadPercent)} (${percent(demo.overheadMinPercent)} … ${percent(demo.overheadMaxPercent)})`,
          `${percent(demo.backupOnlyOverheadPercent)} (${percent(demo.backupOnlyOverheadMinPercent)} … ${percent(demo.backupOnlyOverheadMaxPercent)})`,
          percent(demo.cpuOverheadPercent),
        ],
      ],
    ),
  );
  out.push(
    '',
    `${demo.dataMiB} MiB of the demo's generated data, ${demo.rounds} interleaved rounds, each a whole process: \`${demo.command}\`. ` +
      `Starting the tool alone (\`--help\`, tsx compiling the sources) takes ${fixed(demo.startupMs, 0)} ms of each run; ` +
      'the last column takes that median off both runs of each round.',
  );
  return out;
}
