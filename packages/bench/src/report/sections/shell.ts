import type { Summary } from '../../harness/sample.js';
import type { ShellResult } from '../../shell/shell-pipeline.js';
import { fixed, table } from '../format.js';

const GB = 1e9;

/** Section 10: the `backupstats` command: meter next to cat and pv, a gzip pipeline bare and metered, run's start-up. */
export function shellSection(result: ShellResult): string[] {
  const pv = result.copies.find((row) => row.copier === 'pv -q');
  const stream = `${fixed(result.streamBytes / 2 ** 30, 2)} GiB`;
  return [
    '',
    '### 10. Shell pipelines: `backupstats meter` next to `cat` and `pv -q`, and a metered gzip pipeline',
    '',
    table(
      ['copier', `${stream} of zeros, s (median, min–max)`, 'GB/s', 'CPU s (median)', 'of pv -q'],
      result.copies.map((row) => [
        row.copier,
        `${fixed(row.seconds.median, 2)} (${fixed(row.seconds.min, 2)}–${fixed(row.seconds.max, 2)})`,
        fixed(row.bytesPerSecond / GB, 2),
        fixed(row.cpuSeconds.median, 2),
        pv === undefined ? '–' : `${fixed((row.bytesPerSecond / pv.bytesPerSecond) * 100, 0)} %`,
      ]),
    ),
    '',
    table(
      ['case', 's (median, min–max)', 'over bare', 'CPU s (median)', 'CPU over bare'],
      [
        gzipRow(
          `gzip -6 < ${fixed(result.gzipBytes / 2 ** 20, 0)} MiB > out, bare`,
          result.gzipBare,
          result.gzipBareCpu,
        ),
        gzipRow('cat | gzip -6 | cat, bare between pipes', result.gzipPiped, result.gzipPipedCpu, result),
        gzipRow('gzip -6 between two meters in `backupstats run`', result.gzipMetered, result.gzipMeteredCpu, result),
        ...(result.baseline === undefined
          ? []
          : [gzipRow('the same, baseline build', result.baseline.gzipMetered, result.baseline.gzipMeteredCpu, result)]),
        startupRow('`sh -c true`, ms', result.bareStartup, result.bareStartupCpu),
        startupRow('`node -e 0` (Node.js alone), ms', result.nodeStartup, result.nodeStartupCpu, result),
        startupRow(
          '`backupstats run -- sh -c true` (textfile export), ms',
          result.runStartup,
          result.runStartupCpu,
          result,
        ),
        ...(result.baseline === undefined
          ? []
          : [
              startupRow(
                'the same, baseline build, ms',
                result.baseline.runStartup,
                result.baseline.runStartupCpu,
                result,
              ),
            ]),
      ],
    ),
    '',
    `Within each round: the metered gzip over the piped one ${pctRange(result.gzipMeteredOverPipedPercent)}, over ` +
      `the bare one ${pctRange(result.gzipMeteredOverBarePercent)}; \`backupstats run -- sh -c true\` over the ` +
      `\`sh -c true\` just before it ${fixed(result.runStartupOverBareMs.median, 0)} ms ` +
      `(${fixed(result.runStartupOverBareMs.min, 0)} … ${fixed(result.runStartupOverBareMs.max, 0)} ms); medians.`,
    '',
    `Each case in turn, ${result.rounds} round(s). \`head -c\` of /dev/zero feeds the copiers, whose output goes to ` +
      '/dev/null; CPU is user + system of the whole pipeline (bash `times`). The gzip input is random letters of a ' +
      '16-letter alphabet; the metered run exports to a textfile at its end.' +
      (result.pvMissing ? ' pv is not installed (apt-get install pv): its row is missing.' : '') +
      (result.baseline === undefined
        ? ''
        : ` The baseline build is ${result.baseline.cli}, run in turn with the current one.`),
  ];
}

/** A median percentage with the range of the rounds. */
function pctRange(summary: Summary): string {
  return `${fixed(summary.median, 1)} % (${fixed(summary.min, 1)} … ${fixed(summary.max, 1)} %)`;
}

function gzipRow(name: string, wall: Summary, cpu: Summary, over?: ShellResult): string[] {
  const pct = (a: number, b: number) => `${a >= b ? '+' : ''}${fixed((a / b - 1) * 100, 1)} %`;
  return [
    name,
    `${fixed(wall.median, 2)} (${fixed(wall.min, 2)}–${fixed(wall.max, 2)})`,
    over === undefined ? '–' : pct(wall.median, over.gzipBare.median),
    fixed(cpu.median, 2),
    over === undefined ? '–' : pct(cpu.median, over.gzipBareCpu.median),
  ];
}

function startupRow(name: string, wall: Summary, cpu: Summary, over?: ShellResult): string[] {
  const plus = (a: number, b: number) => `${a >= b ? '+' : ''}${fixed(a - b, 0)} ms`;
  return [
    name,
    `${fixed(wall.median, 0)} (${fixed(wall.min, 0)}–${fixed(wall.max, 0)})`,
    over === undefined ? '–' : plus(wall.median, over.bareStartup.median),
    `${fixed(cpu.median, 0)} ms`,
    over === undefined ? '–' : plus(cpu.median, over.bareStartupCpu.median),
  ];
}
