// The demo's --storage s3|azure|file: the round trip into Azurite (Microsoft's Azure Storage server, started by the
// demo as it starts s3rver) with the Azure rows in the summary and the report, and into a temporary folder.
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BackupStatsReport } from 'backupstats/report';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSummary, row, runCli } from '../../packages/examples/test-support/run-cli.js';

const MiB = 1024 * 1024;

let dir: string;
let source: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'backupstats-example-storage-'));
  // One file of a 4 MiB block and a bit once compressed (random bytes do not compress): two blocks show a block
  // upload as well as more would, at the fewest bytes for the tool and Azurite to carry; one small text file.
  source = join(dir, 'source');
  await mkdir(source, { recursive: true });
  await writeFile(join(source, 'random.ibd'), randomBytes(4.5 * MiB));
  await writeFile(join(source, 'notes.txt'), 'binlog position 4711\n'.repeat(5_000));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

function embedded(html: string): BackupStatsReport {
  const json = /<script type="application\/json" id="backupstats-report">([^<]*)<\/script>/.exec(html)?.[1];
  return JSON.parse(json as string) as BackupStatsReport;
}

describe('the demo with --storage', () => {
  // The azure and file runs go through tsx, as `pnpm demo` runs them: one run of each storage on what users run (the
  // other tests run the compiled tool, at half the CPU).
  it('azure: starts Azurite, backs up in 4 MiB blocks, restores, verifies; the Azure rows in the summary and report', async () => {
    const summary = join(dir, 'azure-summary.json');
    const report = join(dir, 'azure-report.html');
    const result = await runCli(
      [source, '--storage', 'azure', '--summary-json', summary, '--report', report, '--quiet'],
      { viaTsx: true },
    );
    expect(result.stderr).not.toMatch(/error/i);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /^Azure Blob Storage server \(Azurite\) on http:\/\/127\.0\.0\.1:\d+\/devstoreaccount1, container backupstats-demo$/m,
    );
    expect(result.stdout).toContain('in azure://backupstats-demo/backup/');
    expect(result.stdout).toContain('verified: every size and sha256 matches the source');

    const rows = await readSummary(summary);
    const azure = (family: string, operation: string) => {
      const found = row(rows, family, 'BackupStorage', operation);
      expect(found.implementation).toBe('Azure');
      return found;
    };
    // The random file in two blocks, the text file in one, the manifest in one Put Blob; two commits.
    expect(azure('backup', 'Destination:Write').operations).toBe(2 + 1 + 1);
    expect(azure('backup', 'Destination:Close').operations).toBe(2);
    // The listing (is the prefix empty?), four writes, two commits.
    expect(azure('backup', 'HTTP:Request:Send').operations).toBe(7);
    expect(azure('restore', 'Source:Open').operations).toBe(3);
    expect(azure('restore', 'Source:Read').bytes).toBe(azure('backup', 'Destination:Write').bytes);
    expect(azure('restore', 'HTTP:Request:Send').operations).toBe(3);
    expect(result.stdout).toMatch(/^backup\s+BackupStorage\/Azure\s+HTTP:Request:Send\s+7\s/m);

    const data = embedded(await readFile(report, 'utf8'));
    expect(data.storage).toEqual([
      expect.objectContaining({ implementation: 'Azure', attempts: 10, failed: 0, throttled: 0 }),
    ]);
  });

  it('file: backs up into a temporary folder, with no storage server', async () => {
    const summary = join(dir, 'file-summary.json');
    const result = await runCli([source, '--storage', 'file', '--summary-json', summary, '--quiet'], {
      viaTsx: true,
    });
    expect(result.code).toBe(0);
    expect(result.stdout).not.toMatch(/server/);
    expect(result.stdout).toContain('verified: every size and sha256 matches the source');
    const rows = await readSummary(summary);
    expect(rows.filter((r) => r.component === 'BackupStorage').map((r) => r.implementation)).not.toContain('S3');
  });

  it('refuses a storage that is none of s3, azure, file, a folder or s3:// with the usual usage error', async () => {
    const result = await runCli([source, '--storage', 's3://No_Such_Bucket', '--quiet']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--storage is "s3:\/\/No_Such_Bucket"/);
  });
});
