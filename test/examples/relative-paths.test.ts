// The demo's relative paths name places in the folder the user ran the command in: `pnpm demo mydata --storage ./bk`
// runs the tool in packages/examples (pnpm's way with a workspace package's script), and pnpm says where the user
// was in INIT_CWD. And the report page goes where --help says: a new file in the temporary folder for every run.
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { parseToolArgs, USAGE } from '../../packages/examples/src/backup-tool/cli/args.js';
import { EXAMPLES_DIR, readSummary, runCli } from '../../packages/examples/test-support/run-cli.js';

/** What pnpm hands a script of the examples package run from `cwd`. */
const fromPnpm = (cwd: string) => ({ INIT_CWD: cwd, npm_package_name: '@backupstats/examples' });

describe("the demo's paths", () => {
  it('resolve against the folder the command was run in, not packages/examples', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'backupstats-demo-paths-'));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    await mkdir(join(dir, 'mydata'));
    await writeFile(join(dir, 'mydata', 'a.txt'), 'some data to back up\n'.repeat(1000));
    const before = await readdir(EXAMPLES_DIR);

    const result = await runCli(['mydata', '--storage', './bk', '--summary-json', 'summary.json', '--quiet'], {
      env: fromPnpm(dir),
      timeoutMs: 120_000,
      keepReport: true,
    });

    expect(result.code, result.stderr).toBe(0);
    expect((await readdir(join(dir, 'bk'))).length).toBeGreaterThan(0);
    const rows = await readSummary(join(dir, 'summary.json'));
    expect(rows.find((r) => r.family === 'backup' && r.operation === 'Source:Read')?.bytes).toBe(21_000);
    expect(await readdir(EXAMPLES_DIR)).toEqual(before);
    // The page: in the temporary folder, as --help says, under the name the run printed.
    const page = /^report: (.+)$/m.exec(result.stdout)?.[1] as string;
    expect(dirname(page)).toBe(tmpdir());
    onTestFinished(() => rm(page, { force: true }));
    expect((await stat(page)).size).toBeGreaterThan(10_000);
  }, 150_000);

  it('give every run a report page of its own in the temporary folder, as --help says', () => {
    const pages = [parseToolArgs([], {}).report, parseToolArgs([], {}).report];
    for (const page of pages) expect(dirname(page)).toBe(tmpdir());
    expect(pages[0]).not.toBe(pages[1]);
    expect(USAGE.replace(/\s+/g, ' ')).toContain(
      'a new file in the temporary folder for every run, backupstats-report-',
    );
  });
});
