import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { CLI, readSummary, row, runCli } from '../packages/examples/test-support/run-cli.js';
import { freePort } from './support/free-port.js';
import { type Endpoint, S3RVER_CREDENTIALS, s3Client, startS3Server } from './support/s3.js';

// Root ignores file permissions: as root, the permission cases run the tool as `nobody`, so the kernel refuses.
// That needs a checkout `nobody` can read; where it cannot, those two cases are skipped, and say why.
const asRoot = process.getuid?.() === 0;
const NOBODY = 65534;
const unprivileged = asRoot ? { uid: NOBODY, gid: NOBODY } : {};
const permissionsApply =
  !asRoot ||
  spawnSync(process.execPath, ['-e', `require('fs').accessSync(${JSON.stringify(CLI)}, require('fs').constants.R_OK)`], {
    uid: NOBODY,
    gid: NOBODY,
  }).status === 0;
if (!permissionsApply) {
  console.warn(`backupstats example tests: running as root and user nobody cannot read ${CLI}; the permission cases are skipped`);
}
// A real full file system: a 256 KiB tmpfs in a private mount namespace (unprivileged user namespaces).
const canMountTmpfs = spawnSync('unshare', ['-rm', 'true']).status === 0;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'backupstats-errors-'));
  // Reachable by the unprivileged user of the permission cases.
  await chmod(dir, 0o777);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** A source folder of three files, a.txt, b.txt and c.txt, 40 000 bytes each. */
async function sourceTree(name: string): Promise<string> {
  const source = join(dir, name);
  await mkdir(source, { mode: 0o755 });
  await chmod(source, 0o755);
  for (const file of ['a.txt', 'b.txt', 'c.txt']) await writeFile(join(source, file), `${file}\n`.repeat(6_000), { mode: 0o644 });
  return source;
}

/** A backup made by the tool, to damage. */
async function backupOf(name: string): Promise<string> {
  const source = await sourceTree(`${name}-source`);
  const storage = join(dir, `${name}-storage`);
  const made = await runCli(['backup', source, storage, '--quiet']);
  expect(made.code).toBe(0);
  return storage;
}

describe('bad input: a clear error naming the file, a non-zero exit code, the metrics of what happened exported', () => {
  it('a missing source folder exits with 3', async () => {
    const missing = join(dir, 'no-such-folder');
    const result = await runCli([missing, '--quiet']);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(`source folder ${missing} cannot be read: does not exist (ENOENT)`);
  });

  it.runIf(permissionsApply)('an unreadable file exits with 3, names it, and the files before it are exported (console exporter)', async () => {
    const source = await sourceTree('unreadable');
    await chmod(join(source, 'b.txt'), 0o000);
    const summary = join(dir, 'unreadable-summary.json');
    const result = await runCli(['backup', source, join(dir, 'unreadable-storage'), '--concurrency', '1', '--quiet', '--summary-json', summary], {
      ...unprivileged,
      env: { OTEL_METRICS_EXPORTER: 'console' },
    });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(`cannot read source file ${join(source, 'b.txt')}: permission denied (EACCES)`);
    // a.txt was backed up before b.txt failed to open: exactly its open and its bytes.
    const rows = await readSummary(summary);
    expect(row(rows, 'backup', 'BackupEngine', 'Source:Open').operations).toBe(1);
    expect(row(rows, 'backup', 'BackupEngine', 'Source:Read').bytes).toBe(36_000);
    expect(row(rows, 'backup', 'BackupEngine', 'Backup').operations).toBe(0);
    // The console exporter printed the final export at shutdown, on the error path too.
    expect(result.stdout).toContain("name: 'backup.bytes'");
  });

  it.runIf(permissionsApply)('a read-only storage folder exits with 4 and names the file it could not create', async () => {
    const source = await sourceTree('readonly-source');
    const storage = join(dir, 'readonly-storage');
    await mkdir(storage);
    await chmod(storage, 0o555);
    // One file at a time, so that the first object the tool creates is 000000.gz.
    const result = await runCli(['backup', source, storage, '--concurrency', '1', '--quiet'], unprivileged);
    expect(result.code).toBe(4);
    expect(result.stderr).toContain(`cannot write ${join(storage, '000000.gz')}: permission denied (EACCES)`);
  });

  it.skipIf(!canMountTmpfs)('a full storage file system exits with 4 and names the file being written', async () => {
    const source = join(dir, 'full-source');
    await mkdir(source);
    await writeFile(join(source, 'big.bin'), randomBytes(1024 * 1024));
    const mountpoint = join(dir, 'full-mount');
    await mkdir(mountpoint);
    const storage = join(mountpoint, 'storage');
    const summary = join(dir, 'full-summary.json');
    const result = await runCli(['backup', source, storage, '--quiet', '--summary-json', summary], {
      wrapper: ['unshare', '-rm', 'sh', '-c', 'mount -t tmpfs -o size=256k tmpfs "$0" && exec "$@"', mountpoint],
    });
    expect(result.stderr).toContain(`cannot write ${join(storage, '000000.gz')}: no space left on the device (ENOSPC)`);
    expect(result.code).toBe(4);
    // What was written before the disk filled up is exported.
    const rows = await readSummary(summary);
    expect(row(rows, 'backup', 'BackupStorage', 'Destination:Open').operations).toBe(1);
    expect(row(rows, 'backup', 'BackupStorage', 'Destination:Write').bytes).toBeGreaterThan(0);
    expect(row(rows, 'backup', 'BackupStorage', 'Destination:Write').bytes).toBeLessThanOrEqual(256 * 1024);
  });

  it.skipIf(!canMountTmpfs)('a read-only file system exits with 4 and names the folder it could not create', async () => {
    const source = await sourceTree('rofs-source');
    const mountpoint = join(dir, 'rofs-mount');
    await mkdir(mountpoint);
    const storage = join(mountpoint, 'storage');
    const result = await runCli(['backup', source, storage, '--quiet'], {
      wrapper: ['unshare', '-rm', 'sh', '-c', 'mount -t tmpfs -o ro,size=64k tmpfs "$0" && exec "$@"', mountpoint],
    });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain(`cannot write ${storage}: the file system is read-only (EROFS)`);
  });

  it('a corrupted archive at restore exits with 5 and names it', async () => {
    const storage = await backupOf('corrupt');
    const object = join(storage, '000001.gz');
    const data = await readFile(object);
    for (let i = 20; i < data.length - 8; i += 97) data[i] = (data[i] ?? 0) ^ 0xff;
    await writeFile(object, data);
    const summary = join(dir, 'corrupt-summary.json');
    const result = await runCli(['restore', storage, join(dir, 'corrupt-restored'), '--concurrency', '1', '--quiet', '--summary-json', summary]);
    expect(result.code).toBe(5);
    expect(result.stderr).toContain(`cannot restore from ${object}: corrupted archive (Z_DATA_ERROR`);
    const rows = await readSummary(summary);
    expect(row(rows, 'restore', 'BackupStorage', 'Source:Open').operations).toBe(2);
    expect(row(rows, 'restore', 'BackupEngine', 'Destination:Write').bytes).toBeGreaterThanOrEqual(36_000);
  });

  it('a truncated archive, a missing archive and a damaged manifest exit with 5 and name the file', async () => {
    const storage = await backupOf('damaged');
    const truncated = join(storage, '000002.gz');
    await truncate(truncated, 30);
    let result = await runCli(['restore', storage, join(dir, 'damaged-1'), '--quiet']);
    expect(result.code).toBe(5);
    expect(result.stderr).toContain(`cannot restore from ${truncated}: corrupted archive`);

    await rm(truncated);
    result = await runCli(['restore', storage, join(dir, 'damaged-2'), '--quiet']);
    expect(result.code).toBe(5);
    expect(result.stderr).toContain(`cannot restore from ${truncated}: does not exist (ENOENT)`);

    const manifest = join(storage, 'MANIFEST.json');
    await writeFile(manifest, '{"format": "backupstats-example/1", "files": [');
    result = await runCli(['restore', storage, join(dir, 'damaged-3'), '--quiet']);
    expect(result.code).toBe(5);
    expect(result.stderr).toContain(`cannot restore from ${manifest}: the manifest is not valid JSON`);
  });

  it('an archive that decompresses to other content fails its checksum with 5', async () => {
    const storage = await backupOf('mismatch');
    const manifestPath = join(storage, 'MANIFEST.json');
    const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as { files: { object: string }[] };
    // Swap two objects: both decompress cleanly, to the wrong file.
    const [first, second] = manifest.files;
    [first!.object, second!.object] = [second!.object, first!.object];
    await writeFile(manifestPath, JSON.stringify(manifest));
    const result = await runCli(['restore', storage, join(dir, 'mismatch-restored'), '--concurrency', '1', '--quiet']);
    expect(result.code).toBe(5);
    expect(result.stderr).toMatch(/cannot restore a\.txt: its archive .*000001\.gz gives data that does not match the manifest/);
  });

  it('a bad flag or variable exits with 2, naming it and what it accepts', async () => {
    let result = await runCli(['--size', 'lots']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--size is "lots"; accepted: a size from 1B to 64GiB');
    result = await runCli(['--compression', 'zstd']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--compression is "zstd"; accepted: gzip or brotli');
    result = await runCli(['--quiet'], { env: { OTEL_METRICS_EXPORTER: 'carrier-pigeon' } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('OTEL_METRICS_EXPORTER');
  });
});

describe('bad S3 storage: one clear line, a distinct exit code, the attempts exported', () => {
  /** AWS's variables for a server of the tests; `credentials` replaces s3rver's account. */
  const awsEnv = (endpoint: string, credentials: { id: string; secret: string } = { id: S3RVER_CREDENTIALS.accessKeyId, secret: S3RVER_CREDENTIALS.secretAccessKey }) => ({
    AWS_ENDPOINT_URL: endpoint,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: credentials.id,
    AWS_SECRET_ACCESS_KEY: credentials.secret,
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  });
  const s3Rows = async (summary: string, family: string) => {
    const rows = await readSummary(summary);
    const get = (operation: string) => rows.find((r) => r.family === family && r.implementation === 'S3' && r.operation === operation)?.operations ?? 0;
    return { send: get('AWS:Request:Send'), failed: get('AWS:Request:Failed'), throttled: get('AWS:Request:Throttled') };
  };
  /** s3rver with a bucket `backups`, stopped when the test ends. */
  const serverWithBucket = async (): Promise<Endpoint> => {
    const server = await startS3Server();
    onTestFinished(() => server.stop());
    const client = s3Client(server);
    onTestFinished(() => client.destroy());
    await client.send(new CreateBucketCommand({ Bucket: 'backups' }));
    return server;
  };

  it('an unreachable endpoint exits with 6 and names it; each of the SDK\'s three attempts is exported as failed', async () => {
    const source = await sourceTree('s3-unreachable-source');
    const endpoint = `http://127.0.0.1:${await freePort()}`;
    const summary = join(dir, 's3-unreachable-summary.json');
    const result = await runCli(['backup', source, 's3://backups/x', '--quiet', '--summary-json', summary], { env: awsEnv(endpoint) });
    expect(result.code).toBe(6);
    expect(result.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(new RegExp(`^backup-demo: error: cannot reach the S3 endpoint ${endpoint} for s3://backups/x/ \\(.*ECONNREFUSED.*\\)$`)),
    ]);
    expect(await s3Rows(summary, 'backup')).toEqual({ send: 3, failed: 3, throttled: 0 });
  });

  it('a missing bucket exits with 7 and names it', async () => {
    const server = await serverWithBucket();
    const source = await sourceTree('s3-nobucket-source');
    const summary = join(dir, 's3-nobucket-summary.json');
    const result = await runCli(['backup', source, 's3://no-such-bucket/x', '--quiet', '--summary-json', summary], { env: awsEnv(server.url) });
    expect(result.code).toBe(7);
    expect(result.stderr).toBe(
      `backup-demo: error: cannot use s3://no-such-bucket/x/: the bucket no-such-bucket does not exist at the S3 endpoint ${server.url} (NoSuchBucket)\n`,
    );
    expect(await s3Rows(summary, 'backup')).toEqual({ send: 1, failed: 1, throttled: 0 });
  });

  it('access denied (an unknown access key) exits with 8 and says which variables to check', async () => {
    const server = await serverWithBucket();
    const storage = await backupOfS3(server, 's3-denied');
    const summary = join(dir, 's3-denied-summary.json');
    const result = await runCli(['restore', storage, join(dir, 's3-denied-restored'), '--quiet', '--summary-json', summary], {
      env: awsEnv(server.url, { id: 'NOT-A-KEY', secret: 'wrong' }),
    });
    expect(result.code).toBe(8);
    expect(result.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^backup-demo: error: access to s3:\/\/backups\/s3-denied\/MANIFEST\.json was denied \(InvalidAccessKeyId: .+\); check the credentials: AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY or AWS_PROFILE$/),
    ]);
    expect(await s3Rows(summary, 'restore')).toEqual({ send: 1, failed: 1, throttled: 0 });
  });

  it('a corrupted object at restore exits with 5 and names its s3:// URL', async () => {
    const server = await serverWithBucket();
    const storage = await backupOfS3(server, 's3-corrupt');
    // Damage the second object in place, through the S3 API.
    const client = s3Client(server);
    onTestFinished(() => client.destroy());
    const got = await client.send(new GetObjectCommand({ Bucket: 'backups', Key: 's3-corrupt/000001.gz' }));
    const data = Buffer.from(await got.Body!.transformToByteArray());
    for (let i = 20; i < data.length - 8; i += 97) data[i] = (data[i] ?? 0) ^ 0xff;
    await client.send(new PutObjectCommand({ Bucket: 'backups', Key: 's3-corrupt/000001.gz', Body: data }));
    const summary = join(dir, 's3-corrupt-summary.json');
    const result = await runCli(['restore', storage, join(dir, 's3-corrupt-restored'), '--concurrency', '1', '--quiet', '--summary-json', summary], {
      env: awsEnv(server.url),
    });
    expect(result.code).toBe(5);
    expect(result.stderr).toContain('backup-demo: error: cannot restore from s3://backups/s3-corrupt/000001.gz: corrupted archive (Z_DATA_ERROR');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    const rows = await readSummary(summary);
    // The manifest and the first two objects were opened; the first file was restored whole.
    expect(row(rows, 'restore', 'BackupStorage', 'Source:Open').operations).toBe(3);
    expect(row(rows, 'restore', 'BackupEngine', 'Destination:Write').bytes).toBeGreaterThanOrEqual(36_000);
    expect(await s3Rows(summary, 'restore')).toEqual({ send: 3, failed: 0, throttled: 0 });
  });

  it('a malformed s3:// storage or endpoint variable exits with 2, naming it and what it accepts', async () => {
    let result = await runCli(['--storage', 's3://B/x']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--storage is "s3://B/x"; accepted: a folder, or s3://bucket/prefix');
    const source = await sourceTree('s3-badenv-source');
    result = await runCli(['backup', source, 's3://backups/x', '--quiet'], { env: { AWS_ENDPOINT_URL: 'localhost:9000' } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('AWS_ENDPOINT_URL is "localhost:9000"; accepted: an http:// or https:// URL');
  });
});

/** A backup made by the tool into `s3://backups/<prefix>` on `server`, to damage or to deny. */
async function backupOfS3(server: Endpoint, prefix: string): Promise<string> {
  const source = await sourceTree(`${prefix}-source`);
  const storage = `s3://backups/${prefix}`;
  const made = await runCli(['backup', source, storage, '--quiet'], {
    env: {
      AWS_ENDPOINT_URL: server.url,
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    },
  });
  expect(made.stderr).toBe('');
  expect(made.code).toBe(0);
  return storage;
}
