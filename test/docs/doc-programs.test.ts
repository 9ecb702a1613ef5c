// Every ```ts block of README.md and docs/ that is a whole program runs here as written, against real servers, and
// what the block says it exports must arrive: an example that compiles but exports nothing fails here.
// A block is a fragment, not run, when it declares what it leaves out (`declare`); every other block must be one
// of PROGRAMS, so a new example cannot go unrun. Only the environment points a program at the servers, as a user's
// job would be pointed (and docs/production.md's Pushgateway URL, which the example writes in code).
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startNode } from '@backupstats/testkit/node-process';
import { RUN_DURATION_BOUNDARIES } from 'backupstats';
import { describe, expect, it, onTestFinished } from 'vitest';
// @ts-expect-error: a script of the repository, without types
import { blocksOf, esModule } from '../../scripts/readme-examples.mjs';
import { type OtlpReceiver, startOtlpReceiver } from '../support/otlp-receiver.js';
import { parseExposition } from '../support/pushgateway/exposition.js';
import { sampleValue } from '../support/pushgateway/group-series.js';
import { type PushgatewayServer, pushgatewayBinary, startPushgateway } from '../support/pushgateway/server.js';
import { latestHistogram } from '../support/received-histograms.js';
import { histogramPoint, latest } from '../support/received-runs.js';
import { seriesKey } from '../support/series-key.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const FILES = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

interface Block {
  readonly file: string;
  readonly line: number;
  readonly language: string;
  readonly code: string;
}

/** What a program's run leaves to check. */
interface Ran {
  readonly dir: string;
  readonly stdout: string;
  readonly receiver: OtlpReceiver;
  readonly pushgateway: PushgatewayServer | undefined;
}

interface Program {
  readonly file: string;
  /** Text only this block of the file holds. */
  readonly marker: string;
  /** Another program of the same page, written next to it under this name (docs/workers.md's worker). */
  readonly companion?: { readonly marker: string; readonly name: string };
  /** Covered by a test of its own. */
  readonly elsewhere?: string;
  /**
   * The program's own file (test/docs/programs/), run here as the page's block would be: the page shows it as it
   * is, in the block that holds `marker`.
   */
  readonly source?: string;
  readonly env?: Readonly<Record<string, string>>;
  /** The exit code the block says it ends with (default 0). */
  readonly exitCode?: number;
  readonly pushgateway?: boolean;
  /** The block writes into node_exporter's directory, /var/lib/prometheus/node-exporter/: into the run's folder here. */
  readonly textfile?: boolean;
  check?(ran: Ran): Promise<void> | void;
}

const READ = { component: 'BackupEngine', implementation: 'Builtin', operation: 'Source:Read' };
const ROOT_READ = { component: '-', implementation: '-', operation: 'Source:Read' };
/** The NodeSDK's exporters from the variables: metrics over OTLP, nothing else. */
const NODE_SDK = { OTEL_METRICS_EXPORTER: 'otlp', OTEL_TRACES_EXPORTER: 'none', OTEL_LOGS_EXPORTER: 'none' };

/** The bytes `ibdata1` holds, and those a gzip of it wrote, read back after the run. */
const sizeOf = (dir: string, name: string) => statSync(join(dir, name)).size;

const PROGRAMS: readonly Program[] = [
  {
    file: 'README.md',
    marker: 'OTEL_METRICS_EXPORTER=console node quickstart.mjs',
    env: { OTEL_METRICS_EXPORTER: 'console' },
    check: ({ stdout }) => {
      // What the README says it prints, as the console exporter prints it.
      expect(stdout).toMatch(/name: 'backup\.operations'[\s\S]*?operation: 'Source:Read'[\s\S]*?value: 1000\b/);
      expect(stdout).toMatch(/name: 'backup\.bytes'[\s\S]*?operation: 'Source:Read'[\s\S]*?value: 65536000\b/);
      expect(stdout).toMatch(/name: 'backup\.time'[\s\S]*?operation: 'Source:Read'[\s\S]*?value: 0\.25\b/);
      expect(stdout).toMatch(/name: 'backup\.operation\.duration'/);
    },
  },
  {
    file: 'README.md',
    marker: "for await (const chunk of createReadStream('ibdata1'))",
    check: ({ dir, receiver }) => {
      expect(receiver.totals().get(seriesKey('backup.bytes', READ))).toBe(sizeOf(dir, 'ibdata1'));
    },
  },
  {
    file: 'docs/streams.md',
    marker: "meterWritable(createWriteStream('ibdata1.gz')",
    check: ({ dir, receiver }) => {
      const written = { ...READ, operation: 'Destination:Write' };
      expect(receiver.totals().get(seriesKey('backup.bytes', READ))).toBe(sizeOf(dir, 'ibdata1'));
      expect(receiver.totals().get(seriesKey('backup.bytes', written))).toBe(sizeOf(dir, 'ibdata1.gz'));
    },
  },
  {
    file: 'docs/configuration.md',
    marker: '// rejects on any invalid variable, naming it',
    check: ({ receiver }) => expect(receiver.totals().get(seriesKey('backup.bytes', READ))).toBe(65_536),
  },
  {
    file: 'docs/configuration.md',
    marker: 'const sdk = new NodeSDK(); // metric readers from OTEL_METRICS_EXPORTER',
    env: NODE_SDK,
    check: ({ receiver }) => expect(receiver.totals().get(seriesKey('backup.bytes', ROOT_READ))).toBe(65_536),
  },
  ...["{ aggregation: 'exponential' } for OTLP", 'const sdk = new NodeSDK({'].map(
    (marker): Program => ({
      file: 'docs/histograms.md',
      marker,
      env: NODE_SDK,
      check: ({ receiver }) => {
        expect(receiver.totals().get(seriesKey('backup.bytes', ROOT_READ))).toBe(65_536);
        expect(latestHistogram(receiver, 'backup.operation.duration', 'Source:Read')).toMatchObject({
          kind: 'explicit',
          count: 1,
          sum: 0.0025,
        });
      },
    }),
  ),
  {
    file: 'docs/production.md',
    marker: 'createPushgatewayExporter({',
    env: NODE_SDK,
    pushgateway: true,
    check: async ({ pushgateway }) => {
      const group = { job: 'nightly-backup', region: 'eu-west-1', operation: 'Source:Read' };
      expect(sampleValue((await pushgateway?.samples()) ?? [], 'backup_bytes_total', group)).toBe(65_536);
    },
  },
  {
    file: 'docs/production.md',
    marker: 'createTextfileExporter({',
    env: NODE_SDK,
    textfile: true,
    check: ({ dir }) => {
      const file = parseExposition(readFileSync(join(dir, 'nightly-db.prom'), 'utf8'));
      expect(sampleValue(file, 'backup_bytes_total', { operation: 'Source:Read' })).toBe(65_536);
    },
  },
  {
    file: 'docs/runs-and-alerts.md',
    marker: 'await trackRun(backupRun, backUpDatabase',
    check: ({ stdout, receiver }) => {
      expect(stdout).toContain('backed up 52428800 bytes');
      const run = { component: 'BackupEngine', implementation: 'Builtin', operation: 'Backup' };
      expect(latest(receiver, 'backup.runs', { ...run, outcome: 'success' })).toBe(1);
      expect(latest(receiver, 'backup.last_success.bytes', run)).toBe(52_428_800);
    },
  },
  {
    file: 'docs/runs-and-alerts.md',
    marker: "run.phase('upload');",
    check: ({ receiver }) => {
      // The run read its whole expected size and ended: done, nothing left, none in progress, no phase current.
      const run = { component: 'BackupEngine', implementation: 'Builtin', operation: 'Backup' };
      expect(latest(receiver, 'backup.run.progress', run)).toBe(1);
      expect(latest(receiver, 'backup.run.remaining_time', run)).toBe(0);
      expect(latest(receiver, 'backup.active_runs', run)).toBe(0);
      expect(latest(receiver, 'backup.run.phase', { ...run, phase: 'read' })).toBe(0);
      expect(latest(receiver, 'backup.run.phase', { ...run, phase: 'upload' })).toBe(0);
    },
  },
  {
    file: 'docs/runs-and-alerts.md',
    marker: 'const deletes = stats.prune.scope({ ...bucket, operation: Operation.PruneDelete });',
    check: ({ receiver }) => {
      const engine = { component: 'BackupEngine', implementation: 'Builtin' };
      const bucket = { component: 'BackupStorage', implementation: 'S3' };
      const backup = { ...engine, operation: 'Backup' };
      expect(latest(receiver, 'backup.last_success.bytes', backup)).toBe(1_000_000);
      expect(latest(receiver, 'backup.last_success.stored_bytes', backup)).toBe(400_000);
      expect(latest(receiver, 'backup.run.warnings', { ...backup, 'error.type': 'destination' })).toBe(1);
      const verify = { ...engine, operation: 'Verify' };
      expect(latest(receiver, 'verify.runs', { ...verify, outcome: 'success' })).toBe(1);
      const prune = { ...bucket, operation: 'Prune' };
      expect(latest(receiver, 'prune.runs', { ...prune, outcome: 'partial', 'error.type': 'destination' })).toBe(1);
      expect(latest(receiver, 'prune.last_success.timestamp', prune)).toBeUndefined();
      expect(receiver.totals().get(seriesKey('prune.bytes', { ...bucket, operation: 'Prune:Delete' }))).toBe(380_000);
    },
  },
  {
    file: 'docs/runs-and-alerts.md',
    marker: 'AggregationType.EXPLICIT_BUCKET_HISTOGRAM',
    check: ({ receiver }) => {
      expect(histogramPoint(receiver, 'backup.run.duration', 'success')).toEqual({
        count: 1,
        bounds: [...RUN_DURATION_BOUNDARIES],
      });
    },
  },
  {
    file: 'docs/workers.md',
    marker: "new Worker(new URL('./compress.js', import.meta.url)",
    companion: { marker: '// compress.js', name: 'compress.js' },
    check: ({ receiver }) => {
      const compress = { ...READ, operation: 'Compressor:Write' };
      // Four workers, each one metered 64 KiB chunk and one 64 KiB by hand.
      expect(receiver.totals().get(seriesKey('backup.bytes', compress))).toBe(4 * 2 * 65_536);
      expect(receiver.totals().get(seriesKey('backup.operations', compress))).toBe(4 * 2);
    },
  },
  {
    file: 'docs/errors.md',
    marker: "if (code === 'BACKUPSTATS_INVALID_ENV') process.exitCode = 2;",
    env: { OTEL_METRIC_EXPORT_INTERVAL: 'soon' },
    exitCode: 2,
  },
  { file: 'docs/storage.md', marker: 'meterS3Client(uploads', elsewhere: 'test/docs/s3-example.test.ts' },
  { file: 'docs/storage.md', marker: 'meterBlobClient(uploads', elsewhere: 'test/docs/storage-examples.test.ts' },
  { file: 'docs/storage.md', marker: 'file.createWriteStream()', elsewhere: 'test/docs/storage-examples.test.ts' },
  {
    file: 'docs/storage.md',
    marker: "endpoint: 'https://storage.googleapis.com'",
    elsewhere: 'test/docs/storage-examples.test.ts',
  },
  {
    file: 'docs/streams.md',
    marker: 'closeThrough(reading)',
    source: 'test/docs/programs/file-handle-close.ts',
    check: ({ dir, stdout, receiver }) => {
      // The closes settle: a close that waited for its stream would leave the program's last await unsettled.
      expect(stdout).toContain('closed: true');
      for (const operation of ['Source:Open', 'Source:Close', 'Destination:Open', 'Destination:Close']) {
        expect(receiver.totals().get(seriesKey('backup.operations', { ...READ, operation })), operation).toBe(1);
      }
      const written = { ...READ, operation: 'Destination:Write' };
      expect(receiver.totals().get(seriesKey('backup.bytes', READ))).toBe(sizeOf(dir, 'ibdata1'));
      expect(receiver.totals().get(seriesKey('backup.bytes', written))).toBe(sizeOf(dir, 'ibdata1.gz'));
    },
  },
  {
    file: 'docs/report.md',
    marker: "await writeReport(stats, 'backup-report.html')",
    check: ({ dir, stdout, receiver }) => {
      // A read of 5 ms in a run of 20: the rest of the run is work no meter saw, and the sentence says so.
      expect(stdout).toMatch(
        /^Source:Read was busy \d+ % of the run, the most of its metered stages \(BackupEngine\/Builtin\); at least \d+ % of the run went to work no metered stage measured$/m,
      );
      expect(stdout).toContain('1 series');
      expect(sizeOf(dir, 'backup-report.html')).toBeGreaterThan(50_000);
      expect(receiver.totals().get(seriesKey('backup.bytes', READ))).toBe(65_536);
    },
  },
];

/**
 * The database file the examples read: 1 MiB of text and less compressible bytes (sixteen 64 KiB reads, and a gzip
 * of it smaller than it but not tiny). Made once for all the programs.
 */
let database: Buffer | undefined;
function ibdata1(): Buffer {
  if (database === undefined) {
    const text = Buffer.from('InnoDB page, log record, row data; '.repeat(15_000));
    const rest = Buffer.alloc(1024 * 1024 - text.length).map((_, i) => (i * 2654435761) >>> 24);
    database = Buffer.concat([text, rest]);
  }
  return database;
}

function tsBlocks(file: string): Block[] {
  return (blocksOf(root, file) as Block[]).filter((block) => block.language === 'ts');
}

/** A program kept in a file of its own, as a block. */
function sourceBlock(source: string): Block {
  return { file: source, line: 1, language: 'ts', code: readFileSync(join(root, source), 'utf8') };
}

function blockOf(file: string, marker: string): Block {
  const found = tsBlocks(file).filter((block) => block.code.includes(marker));
  if (found.length !== 1) throw new Error(`${file}: ${found.length} ts blocks contain ${JSON.stringify(marker)}`);
  return found[0] as Block;
}

describe('the docs: whole programs', () => {
  it('every ts block is a fragment (it declares what it leaves out) or one of the programs run here', () => {
    const unrun = FILES.flatMap((file) =>
      tsBlocks(file)
        .filter((block) => !/^declare /m.test(block.code))
        .filter(
          (block) =>
            !PROGRAMS.some(
              (p) =>
                p.file === file && (block.code.includes(p.marker) || block.code.includes(p.companion?.marker ?? '\0')),
            ),
        )
        .map((block) => `${file}:${block.line}`),
    );
    expect(unrun).toEqual([]);
  });

  for (const program of PROGRAMS.filter((p) => p.source !== undefined)) {
    const source = program.source as string;
    const shown = tsBlocks(program.file).filter((block) => block.code.includes(program.marker));
    it.skipIf(shown.length === 0)(`${program.file} shows ${source} as it is`, () => {
      expect(shown.map((block) => block.code.trim())).toEqual([readFileSync(join(root, source), 'utf8').trim()]);
    });
  }

  for (const program of PROGRAMS.filter((p) => p.elsewhere === undefined)) {
    const block = program.source === undefined ? blockOf(program.file, program.marker) : sourceBlock(program.source);
    const skip =
      program.pushgateway === true && pushgatewayBinary === undefined && process.env.BACKUPSTATS_REQUIRE_E2E !== '1';
    it.skipIf(skip)(
      `${program.source ?? `${program.file}:${block.line}`} runs as written and exports what it says`,
      async () => {
        const receiver = await startOtlpReceiver('http');
        onTestFinished(() => receiver.stop());
        let pushgateway: PushgatewayServer | undefined;
        let code = block.code;
        if (program.pushgateway === true) {
          const server = await startPushgateway();
          onTestFinished(() => server.stop());
          pushgateway = server;
          code = code.replace('http://pushgateway:9091', server.url);
        }
        // In the workspace, so that the imports resolve as in a user's project; test/.run-* is git-ignored.
        const dir = mkdtempSync(join(root, 'test', '.run-doc-program-'));
        onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
        if (program.textfile === true) code = code.replace('/var/lib/prometheus/node-exporter/', `${dir}/`);
        writeFileSync(join(dir, 'program.mjs'), esModule({ ...block, code }) as string);
        if (program.companion !== undefined) {
          const companion = blockOf(program.file, program.companion.marker);
          writeFileSync(join(dir, program.companion.name), esModule(companion) as string);
        }
        writeFileSync(join(dir, 'ibdata1'), ibdata1());

        const job = startNode(['program.mjs'], {
          cwd: dir,
          env: {
            OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
            OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
            OTEL_METRIC_EXPORT_INTERVAL: '600000', // no periodic export: what arrives is the final one
            ...program.env,
          },
        });
        onTestFinished(() => job.kill());
        expect((await job.exited).code, `${job.stdout()}\n${job.stderr()}`).toBe(program.exitCode ?? 0);
        await program.check?.({ dir, stdout: job.stdout(), receiver, pushgateway });
      },
      60_000,
    );
  }
});
