import { spreadPercent } from '../harness/sample.js';
import { fixed, kib, MiB, ns, percent, share, table } from './format.js';
import { machineLabel } from './machine.js';
import type { RunResults } from './results.js';
import { checkTargets } from './targets.js';

/** Renders the run as Markdown: the targets first, then one table per benchmark. */
export function renderMarkdown(results: RunResults): string {
  const machine = machineLabel(results.machine);
  const date = results.date;
  const out: string[] = [];
  out.push(
    `Machine: ${machine}. Date: ${date}.${results.quick ? ' **Quick mode: sizes too small for the figures to mean anything.**' : ''}`,
  );
  out.push('');
  out.push('### Targets');
  out.push('');
  out.push(
    table(
      ['benchmark', 'target', 'measured (median)', 'met', 'machine', 'date'],
      checkTargets(results).map((c) => [
        c.benchmark,
        c.target,
        c.measured,
        c.met === undefined ? '–' : c.met ? 'yes' : '**no**',
        machine,
        date,
      ]),
    ),
  );

  const record = results.record;
  if (record !== undefined) {
    out.push('', '### 1. Cost of one record (`timedIncrementBytes` or its equivalent)', '');
    out.push(
      table(
        ['case', 'ns/op (median)', '± (rme)', 'direct OTel ÷ this', 'records per sample'],
        record.rows.map((r) => [
          r.case,
          ns(r.nsPerOp),
          `${fixed(r.rmePercent, 1)} %`,
          `${r.cheaperThanOtel >= 10 ? fixed(r.cheaperThanOtel, 0) : fixed(r.cheaperThanOtel, 2)}×`,
          String(record.recordsPerIteration[r.case] ?? ''),
        ]),
      ),
    );
  }

  const pipeline = results.pipeline;
  if (pipeline !== undefined) {
    out.push(
      '',
      `### 2. Pipeline: ${pipeline.totalBytes / MiB} MiB through 3 metered stages (source → transform → sha1 destination, in memory), ${pipeline.rounds} interleaved rounds, ${
        pipeline.pinnedCpu === undefined ? 'mode processes unpinned' : `every mode process on CPU ${pipeline.pinnedCpu}`
      }`,
      '',
    );
    out.push(
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
    );
  }

  if (pipeline !== undefined) {
    out.push(
      '',
      'Every run uses the same three streams, metered in place by `meterReadable`, `meterTransform` and `meterWritable` ' +
        '(except `unmetered`). *direct OTel*: each chunk written straight into three OTel counters. *wrappers on noopStats*: the same ' +
        'wrappers and clock reads recording nothing, which separates the cost of timing each chunk from the cost of recording it. ' +
        '*backupstats timeOneIn 16*: the throttled mode with the opt-in sampled timing (every chunk counted, one in 16 on average timed). ' +
        'Each mode runs in a process of its own; rounds run the modes in this order, then rotated (B C D E F A, …), so every ' +
        'mode takes every place equally often. Overheads are medians of per-round ratios to the same round’s ' +
        'unmetered run; CPU time (user + system) is a cross-check that is less sensitive to other processes taking the cores.',
    );
  }

  const flush = results.flush;
  if (flush !== undefined) {
    out.push('', '### 3. Flush cost', '');
    out.push(
      table(
        [
          'dirty handles',
          'flush() µs (median)',
          'same Counter.add calls µs (median)',
          'flush ÷ SDK calls',
          'repetitions',
        ],
        flush.rows.map((r) => [
          String(r.dirtyHandles),
          fixed(r.flushMs.median * 1000, 1),
          fixed(r.sdkCallsMs.median * 1000, 1),
          `${fixed(r.ratio, 2)} ×`,
          String(r.repetitions),
        ]),
      ),
    );
  }

  const memory = results.memory;
  if (memory !== undefined) {
    const m = memory.records;
    const s = memory.scopes;
    out.push('', '### 4. Memory (heap used after forced GC, fresh process)', '');
    out.push(
      table(
        ['scenario', 'heap before', 'heap after', 'growth'],
        [
          [
            `${m.records.toLocaleString('en-US')} records on ${m.handles} held handles`,
            kib(m.heapBeforeBytes),
            kib(m.heapAfterBytes),
            kib(m.growthBytes),
          ],
          [
            `first ${s.maxScopes.toLocaleString('en-US')} distinct scopes (up to maxScopes)`,
            kib(s.heapEmptyBytes),
            kib(s.heapAtBoundBytes),
            kib(s.growthToBoundBytes),
          ],
          [
            `${s.maxScopes.toLocaleString('en-US')} → ${s.scopeRequests.toLocaleString('en-US')} distinct scopes (past the bound)`,
            kib(s.heapAtBoundBytes),
            kib(s.heapAfterBytes),
            kib(s.growthPastBoundBytes),
          ],
        ],
      ),
    );
  }

  if (results.demo !== undefined)
    out.push(...demoSection('### 5. Demo backup, metrics on vs off (`BACKUPSTATS_DISABLED=true`)', results.demo));
  if (results.demoS3 !== undefined) {
    out.push(
      ...demoSection('### 6. Demo backup to S3, metrics on vs off (`BACKUPSTATS_DISABLED=true`)', results.demoS3),
    );
    if (results.demoS3.status === 'measured') {
      out.push(
        '',
        'The S3 server is s3rver, run by the benchmark process on 127.0.0.1 for both modes; each run backs up into a new prefix, emptied ' +
          'afterwards. Metrics on, every request attempt is metered by `meterS3Client` (AWS:Request:Send and the object operations).',
      );
    }
  }
  const s3 = results.s3Request;
  if (s3 !== undefined) {
    out.push('', '### 7. Cost of the S3 request middleware, next to the request', '');
    out.push(
      table(
        ['what', 'per request', 'middleware ÷ this'],
        [
          [
            '`meterS3Client` middlewares around one UploadPart attempt (both, set-up per command included)',
            `${fixed(s3.middlewareNs, 0)} ns (± ${fixed(s3.middlewareRmePercent, 1)} %)`,
            '–',
          ],
          ['the same awaited call without them (the floor)', `${fixed(s3.bareNs, 0)} ns`, '–'],
          [
            'AWS SDK work per PutObject of 1 KiB, HTTP handler answering at once',
            `${fixed(s3.sdkUs, 1)} µs`,
            share((s3.middlewareNs / (s3.sdkUs * 1000)) * 100),
          ],
          ...s3.rows.map((r) => [
            `${r.case} to s3rver on 127.0.0.1 (median of ${r.samples})`,
            `${fixed(r.msPerRequest, 2)} ms`,
            share(r.middlewareSharePercent),
          ]),
        ],
      ),
    );
    out.push(
      '',
      'The middleware row is the difference between the two tinybench tasks (an inner loop per sample, medians). It records one ' +
        'AWS:Request:Send and one Destination:Write per call on a real SDK MeterProvider; the exported counts are checked.',
    );
  }

  const errors = Object.entries(results.errors);
  if (errors.length > 0) {
    out.push('', '### Crashed', '');
    for (const [name, message] of errors) out.push(`- ${name}: ${message}`);
  }
  return `${out.join('\n')}\n`;
}

function demoSection(title: string, demo: NonNullable<RunResults['demo']>): string[] {
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

/** The JSON document: the whole run, each result row repeated with the machine and date. */
export function renderJson(results: RunResults): unknown {
  const stamp = { machine: results.machine, date: results.date, quick: results.quick };
  const withStamp = <T extends object>(rows: readonly T[] | undefined): Array<T & typeof stamp> | undefined =>
    rows?.map((row) => ({ ...row, ...stamp }));
  return {
    ...stamp,
    targets: withStamp(checkTargets(results)),
    record: withStamp(results.record?.rows),
    recordsPerIteration: results.record?.recordsPerIteration,
    pipeline: withStamp(results.pipeline?.rows),
    flush: withStamp(results.flush?.rows),
    memory: withStamp(results.memory === undefined ? undefined : [results.memory.records, results.memory.scopes]),
    demo: withStamp(results.demo === undefined ? undefined : [results.demo]),
    demoS3: withStamp(results.demoS3 === undefined ? undefined : [results.demoS3]),
    s3Request: withStamp(results.s3Request === undefined ? undefined : [results.s3Request]),
    errors: results.errors,
  };
}
