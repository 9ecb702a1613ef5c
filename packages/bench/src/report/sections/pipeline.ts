import type { PipelineResult, StartRow } from '../../pipeline/pipeline.js';
import { fixed, MiB, percent, table } from '../format.js';

const startOverhead = (r: StartRow): string[] =>
  r.mode === 'unmetered'
    ? ['–', '–']
    : [percent(r.overheadPercent), `${percent(r.overheadMinPercent)} … ${percent(r.overheadMaxPercent)}`];

/** Section 2: every pipeline mode at every chunk size, its overheads, and what the modes are. */
export function pipelineSection(pipeline: PipelineResult): string[] {
  return [
    '',
    `### 2. Pipeline: ${pipeline.totalBytes / MiB} MiB through 3 metered stages (source → transform → sha1 destination, in memory), ${pipeline.rounds} interleaved rounds, ${
      pipeline.pinnedCpu === undefined ? 'mode processes unpinned' : `every mode process on CPU ${pipeline.pinnedCpu}`
    }`,
    '',
    table(
      [
        'chunk',
        'mode',
        'wall ms (median)',
        'spread (max−min)/median',
        'MiB/s',
        'overhead vs unmetered (median)',
        'overhead min … max',
        'overhead vs noopStats wrappers (median)',
        'CPU-time overhead (median)',
      ],
      pipeline.rows.map((r) => [
        `${r.chunkBytes / 1024} KiB`,
        r.mode,
        fixed(r.wallMs.median, 0),
        `${fixed(r.spreadPercent, 1)} %`,
        fixed(r.throughputMiBs, 0),
        r.mode === 'unmetered' ? '–' : percent(r.overheadPercent),
        r.mode === 'unmetered' ? '–' : `${percent(r.overheadMinPercent)} … ${percent(r.overheadMaxPercent)}`,
        r.mode === 'unmetered' || r.mode === 'unmetered again' || r.mode === 'wrappers on noopStats'
          ? '–'
          : percent(r.overNoopPercent),
        r.mode === 'unmetered' ? '–' : percent(r.cpuOverheadPercent),
      ]),
    ),
    '',
    `Timing by budget, the default, against exact timing (one \`performance.now()\` costs ${fixed(pipeline.clockReadNs, 1)} ns here, in the cheapest round): what the three stages' meters cost per chunk in CPU time over the unmetered pipeline, both into a destination that only counts its bytes (the sha1 of the rows above would be most of the CPU time), the same difference for the unmetered pipeline run again (what the figure reads when nothing differs), and, from the rows above, the time the meters recorded (medians over the rounds).`,
    '',
    table(
      [
        'chunk',
        'metering ns per chunk',
        'in clock reads',
        'unmetered again, ns per chunk',
        'recorded s, default',
        'recorded s, exact timing',
        'default vs exact',
      ],
      pipeline.budget.map((b) => [
        `${b.chunkBytes / 1024} KiB`,
        fixed(b.meteringNsPerChunk, 0),
        fixed(b.meteringClockReads, 1),
        fixed(b.noiseNsPerChunk, 0),
        fixed(b.defaultSeconds, 3),
        fixed(b.exactSeconds, 3),
        percent(b.estimateOffPercent),
      ]),
    ),
    '',
    `New pipelines: ${pipeline.fresh.pipelines} per round, each of ${pipeline.fresh.bytes / MiB} MiB in 64 KiB chunks, each built after a collection of the earlier ones' streams (V8 then throws away the stream code it optimized for them, and every pipeline pays its recompilation); the rows above keep the previous run's streams alive, so they show the cost per chunk alone. A file tree: ${pipeline.tree.files} files of ${pipeline.tree.fileBytes / 1024} KiB, one pipeline each (fs read stream → transform → sha1), one file after the other.`,
    '',
    table(
      ['what', 'mode', 'ms (median)', 'vs unmetered (median)', 'min … max'],
      [
        ...pipeline.fresh.rows.map((r) => ['one new pipeline', r.mode, fixed(r.wallMs, 2), ...startOverhead(r)]),
        ...pipeline.tree.rows.map((r) => ['the file tree', r.mode, fixed(r.wallMs, 0), ...startOverhead(r)]),
      ],
    ),
    '',
    'Every run uses the same three streams, metered in place by `meterReadable`, `meterTransform` and `meterWritable` ' +
      '(except `unmetered`). *direct OTel*: each chunk written straight into three OTel counters. *wrappers on noopStats*: the same ' +
      'wrappers and clock reads recording nothing, which separates the cost of timing each chunk from the cost of recording it. ' +
      '*backupstats default*: no options, what a user gets: the throttled flush and timing by budget (every chunk counted; ' +
      'chunks short next to the clock timed one in N, N keeping the clock near 1 % of the time measured). ' +
      '*backupstats exact timing*: every chunk timed (`timeOneIn: 1`). ' +
      'Each mode runs in a process of its own; rounds run the modes in this order, then rotated (B C D E F A, …), so every ' +
      'mode takes every place equally often. Overheads are medians of per-round ratios to the same round’s ' +
      'unmetered run; CPU time (user + system) is a cross-check that is less sensitive to other processes taking the cores.',
  ];
}
