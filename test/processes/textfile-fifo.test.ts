// The textfile exporter reads the files of its directory (the previous run's file, the other jobs' files) and its
// lock: a FIFO among them, or at the path itself, is no file to read. Opened the usual way, a FIFO blocks the reader
// until a writer comes, which is never: the job hung for good. Run in child processes, so that a hang fails the test
// rather than the test runner.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, onTestFinished } from 'vitest';
import { it } from '../support/fixtures.js';

const writer = fileURLToPath(new URL('../fixtures/textfile-writer.mjs', import.meta.url));

describe('a FIFO in the textfile directory', () => {
  for (const [where, fifo] of [
    ['another *.prom of the directory', 'other.prom'],
    ['the path itself', 'job.prom'],
  ] as const)
    it(`at ${where}: passed over, the job writes its file and ends`, async ({ startFixture }) => {
      const dir = mkdtempSync(join(tmpdir(), 'backupstats-fifo-'));
      onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
      execFileSync('mkfifo', [join(dir, fifo)]);
      const path = join(dir, 'job.prom');
      const job = startFixture(writer, {
        OTEL_METRICS_EXPORTER: 'textfile',
        BACKUPSTATS_TEXTFILE_PATH: path,
        OTEL_SERVICE_NAME: 'job',
        FIXTURE_SCOPES: '2',
        FIXTURE_WRITES: '1',
      });
      expect(await job.exited(10_000), job.stderr()).toEqual({ code: 0, signal: null });
      expect(readFileSync(path, 'utf8')).toContain('backup_operations_total{');
    });
});
