// BACKUPSTATS_TEXTFILE_PATH in a directory this process cannot write is refused at set-up with the system's reason.
// A child process, because as root the set-up must run as another user to meet a directory it cannot write.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, onTestFinished } from 'vitest';
import { it } from '../support/fixtures.js';

function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), 'backupstats-textfile-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe('BACKUPSTATS_TEXTFILE_PATH in a directory this process cannot write', () => {
  const ACCEPTED =
    'accepted: the path of a file ending in .prom (node_exporter reads *.prom only) in an existing directory';
  const textfile = (path: string) => ({ OTEL_METRICS_EXPORTER: 'textfile', BACKUPSTATS_TEXTFILE_PATH: path });
  it('a directory this process cannot write: refused at set-up with the system’s reason (as another user when root)', () => {
    const dir = scratch();
    const locked = join(dir, 'locked');
    // mkdtemp's directory is the owner's only; the other user must reach the one it cannot write.
    chmodSync(dir, 0o755);
    mkdirSync(locked, { mode: 0o755 });
    // root writes anywhere: then set-up runs as nobody, for whom the directory (owned by root, 0755) is read-only.
    const asRoot = process.getuid?.() === 0;
    if (!asRoot) chmodSync(locked, 0o555);
    const program =
      "import('backupstats/setup').then((m) => m.startBackupStats()).then(() => console.log('accepted'), (e) => console.log(e.message))";
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', program], {
      cwd: fileURLToPath(new URL('../fixtures/', import.meta.url)),
      env: { ...textfile(join(locked, 'backup.prom')), PATH: process.env.PATH ?? '' },
      encoding: 'utf8',
      ...(asRoot ? { uid: 65534, gid: 65534 } : {}),
    });
    expect(run.stderr).toBe('');
    expect(run.stdout.trim()).toBe(
      `backupstats: BACKUPSTATS_TEXTFILE_PATH is ${JSON.stringify(join(locked, 'backup.prom'))} (its directory ${locked} is not writable: EACCES: permission denied, open '${join(locked, `.backup.prom.${run.pid}-probe.tmp`)}'); ${ACCEPTED} this process can write, such as node_exporter's --collector.textfile.directory`,
    );
  });
});
