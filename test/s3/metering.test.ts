// meterS3Client against a real S3 REST server (s3rver) behind a counting, fault-injecting proxy of ours:
// attempts metered = requests the proxy received, bytes = the bodies it carried, and faults are shown as
// failed / throttled attempts while the object-level totals stay exact.
import { createHash, randomBytes } from 'node:crypto';
import {
  CreateBucketCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { createBackupStats } from 'backupstats';
import { meterS3Client, S3Operation } from 'backupstats/s3';
import { createRecordingStats, noopStats } from 'backupstats/testing';
import { describe, expect, onTestFinished } from 'vitest';
import { it } from '../support/fixtures.js';
import { points } from '../support/harness.js';
import {
  type Endpoint,
  type Fault,
  type ProxiedRequest,
  type S3Proxy,
  s3Client,
  startS3Proxy,
  startS3Server,
} from '../support/s3.js';

const MiB = 1024 * 1024;
const BUCKET = 'backups';

/** s3rver, a proxy in front of it, and the bucket; all stopped when the test ends. */
async function s3Setup(
  fault?: (request: ProxiedRequest) => Fault,
): Promise<{ server: Endpoint; proxy: S3Proxy; direct: S3Client }> {
  const server = await startS3Server();
  onTestFinished(() => server.stop());
  const proxy = await startS3Proxy(server, fault);
  onTestFinished(() => proxy.stop());
  // For set-up and checks, straight to the server: nothing it does is metered or counted.
  const direct = s3Client(server);
  onTestFinished(() => direct.destroy());
  await direct.send(new CreateBucketCommand({ Bucket: BUCKET }));
  return { server, proxy, direct };
}

/** Exported totals of one scope of the backup family. */
async function exported(collect: () => Promise<Parameters<typeof points>[0]>) {
  const all = points(await collect());
  return (operation: string, family: 'backup' | 'restore' = 'backup') => {
    const of = (kind: string) =>
      all.find(
        (p) =>
          p.name === `${family}.${kind}` &&
          p.attributes.operation === operation &&
          p.attributes.component === 'BackupStorage',
      )?.value ?? 0;
    return { operations: of('operations'), bytes: of('bytes'), seconds: of('time') };
  };
}

async function objectSizes(direct: S3Client): Promise<Map<string, number>> {
  const listed = await direct.send(new ListObjectsV2Command({ Bucket: BUCKET }));
  return new Map((listed.Contents ?? []).map((o) => [o.Key ?? '', o.Size ?? 0]));
}

const sha256 = (data: Uint8Array): string => createHash('sha256').update(data).digest('hex');

describe('meterS3Client against a real S3 server', () => {
  it('one AWS:Request:Send per HTTP request the server got, with the bytes of both bodies; object operations per command', async ({
    harness,
  }) => {
    const { proxy, direct } = await s3Setup();
    const stats = createBackupStats({ meterProvider: harness.provider });
    const client = s3Client(proxy);
    onTestFinished(() => client.destroy());
    meterS3Client(client, stats.backup);

    const big = randomBytes(12 * MiB + 12_345);
    const small = Buffer.from('manifest: 2 objects\n');
    // Multipart: 3 parts of 5 MiB at most, all three in flight at once.
    await new Upload({
      client,
      params: { Bucket: BUCKET, Key: 'big.bin', Body: big },
      partSize: 5 * MiB,
      queueSize: 3,
    }).done();
    // Smaller than one part: lib-storage sends one PutObject.
    await new Upload({ client, params: { Bucket: BUCKET, Key: 'small.txt', Body: small } }).done();
    await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'direct.txt', Body: 'x'.repeat(1000) }));
    // A 404 is an attempt that failed (not throttled), and not an object operation.
    await expect(client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: 'missing' }))).rejects.toThrow();
    const got = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'big.bin' }));
    expect(sha256(await (got.Body as { transformToByteArray(): Promise<Uint8Array> }).transformToByteArray())).toBe(
      sha256(big),
    );

    const sizes = await objectSizes(direct);
    expect([...sizes.values()].reduce((a, b) => a + b, 0)).toBe(big.length + small.length + 1000);
    await expect
      .poll(async () => (await exported(() => harness.collect()))(S3Operation.RequestSend).operations)
      .toBe(proxy.counts.requests);

    const total = await exported(() => harness.collect());
    // Create + 3 parts + complete, PutObject (Upload), PutObject, HeadObject, GetObject.
    expect(proxy.counts.requests).toBe(9);
    expect(total(S3Operation.RequestSend)).toMatchObject({
      operations: proxy.counts.requests,
      bytes: proxy.counts.requestBodyBytes + proxy.counts.responseBodyBytes,
    });
    expect(total(S3Operation.RequestFailed).operations).toBe(1);
    expect(total(S3Operation.RequestThrottled).operations).toBe(0);
    // Object level: every byte uploaded is a byte the server stored.
    expect(total('Destination:Open').operations).toBe(1);
    expect(total('Destination:Write')).toMatchObject({ operations: 5, bytes: big.length + small.length + 1000 });
    expect(total('Destination:Close').operations).toBe(1);
    expect(total('Source:Open').operations).toBe(1);
    expect(total('Source:Read').bytes).toBe(big.length);
    expect(total('Source:Close').operations).toBe(1);
    for (const operation of [S3Operation.RequestSend, 'Destination:Write', 'Source:Read'])
      expect(total(operation).seconds).toBeGreaterThan(0);
    // Everything is BackupStorage / S3.
    const series = points(await harness.collect()).filter((p) => p.name.startsWith('backup.'));
    expect(new Set(series.map((p) => `${p.attributes.component}/${p.attributes.implementation}`))).toEqual(
      new Set(['BackupStorage/S3']),
    );
    await stats.shutdown();
  });

  it('503 SlowDown and reset connections from a proxy are throttled and failed attempts; the totals stay exact', async ({
    harness,
  }) => {
    // The first attempt of every third request is answered SlowDown, of every third but one reset; retries pass.
    let seen = 0;
    const { proxy, direct } = await s3Setup(({ attempt }) => {
      if (attempt > 1) return undefined;
      seen += 1;
      return seen % 3 === 0 ? 'slowdown' : seen % 3 === 1 ? 'reset' : undefined;
    });
    const stats = createBackupStats({ meterProvider: harness.provider });
    const uploader = s3Client(proxy, { maxAttempts: 5 });
    const downloader = s3Client(proxy, { maxAttempts: 5 });
    onTestFinished(() => uploader.destroy());
    onTestFinished(() => downloader.destroy());
    meterS3Client(uploader, stats.backup);
    meterS3Client(downloader, stats.restore);

    const objects = [randomBytes(11 * MiB), randomBytes(6 * MiB + 1), randomBytes(70_000)];
    await Promise.all(
      objects.map((body, i) =>
        new Upload({
          client: uploader,
          params: { Bucket: BUCKET, Key: `object-${i}`, Body: body },
          partSize: 5 * MiB,
          queueSize: 4,
        }).done(),
      ),
    );
    for (const [i, body] of objects.entries()) {
      const got = await downloader.send(new GetObjectCommand({ Bucket: BUCKET, Key: `object-${i}` }));
      expect(sha256(await (got.Body as { transformToByteArray(): Promise<Uint8Array> }).transformToByteArray())).toBe(
        sha256(body),
      );
    }

    const sizes = await objectSizes(direct);
    const stored = [...sizes.values()].reduce((a, b) => a + b, 0);
    expect(stored).toBe(objects.reduce((n, o) => n + o.length, 0));
    expect(proxy.counts.slowDowns).toBeGreaterThan(0);
    expect(proxy.counts.resets).toBeGreaterThan(0);

    const total = await exported(() => harness.collect());
    const send = total(S3Operation.RequestSend).operations + total(S3Operation.RequestSend, 'restore').operations;
    expect(send).toBe(proxy.counts.requests);
    const throttled =
      total(S3Operation.RequestThrottled).operations + total(S3Operation.RequestThrottled, 'restore').operations;
    expect(throttled).toBe(proxy.counts.slowDowns);
    const failed = total(S3Operation.RequestFailed).operations + total(S3Operation.RequestFailed, 'restore').operations;
    expect(failed).toBe(proxy.counts.resets);
    const bytes = total(S3Operation.RequestSend).bytes + total(S3Operation.RequestSend, 'restore').bytes;
    expect(bytes).toBe(proxy.counts.requestBodyBytes + proxy.counts.responseBodyBytes);
    // Retries do not inflate the object level: each part and object is counted once, with its bytes.
    expect(total('Destination:Write')).toMatchObject({ operations: 3 + 2 + 1, bytes: stored });
    expect(total('Destination:Open').operations).toBe(2);
    expect(total('Destination:Close').operations).toBe(2);
    expect(total('Source:Open', 'restore').operations).toBe(3);
    expect(total('Source:Read', 'restore').bytes).toBe(stored);
    expect(total('Source:Close', 'restore').operations).toBe(3);
    await stats.shutdown();
  });
});

describe('meterS3Client set-up', () => {
  it('keeps the labels the caller set, and the remover stops the metering', async () => {
    const { proxy } = await s3Setup();
    const stats = createRecordingStats();
    const client = s3Client(proxy);
    onTestFinished(() => client.destroy());
    const remove = meterS3Client(client, stats.scope({ implementation: 'MinIO' }));
    await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'a', Body: 'abc' }));
    expect(
      stats.totals({ component: 'BackupStorage', implementation: 'MinIO', operation: S3Operation.RequestSend }).count,
    ).toBe(1);
    expect(
      stats.totals({ component: 'BackupStorage', implementation: 'MinIO', operation: 'Destination:Write' }),
    ).toMatchObject({ count: 1, bytes: 3 });
    expect(stats.totals({ implementation: 'S3' }).count).toBe(0);

    remove();
    remove();
    await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'b', Body: 'abc' }));
    expect(stats.totals().count).toBe(2);
    expect(proxy.counts.requests).toBe(2);
    // Removed, it can be metered again.
    meterS3Client(client, stats);
    await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'c', Body: 'abc' }));
    expect(stats.totals({ operation: S3Operation.RequestSend }).count).toBe(2);
  });

  it('rejects what is not a client or a Stats, and a client metered twice, with a TypeError that says what is accepted', () => {
    const client = s3Client({ url: 'http://127.0.0.1:9', port: 9, stop: async () => {} });
    onTestFinished(() => client.destroy());
    const stats = createRecordingStats();
    expect(() => meterS3Client({} as never, stats)).toThrow(
      /^backupstats: meterS3Client client is an object \(it has no middlewareStack\); accepted: an S3Client/,
    );
    expect(() => meterS3Client(undefined as never, stats)).toThrow(TypeError);
    expect(() => meterS3Client(client, {} as never)).toThrow(
      /^backupstats: meterS3Client stats is an object; accepted: a Stats/,
    );
    meterS3Client(client, stats);
    expect(() => meterS3Client(client, stats)).toThrow(
      /meterS3Client client is an instance of S3Client \(it is metered already\)/,
    );
  });

  it('rejects stats whose operation is set, which docs/storage.md says to leave unset', async () => {
    const client = s3Client({ url: 'http://127.0.0.1:9', port: 9, stop: async () => {} });
    onTestFinished(() => client.destroy());
    const real = createBackupStats();
    onTestFinished(() => real.shutdown());
    expect(() => meterS3Client(client, real.backup.scope({ operation: 'Mine' }))).toThrow(
      /^backupstats: meterS3Client stats is an instance of \w+ \(its operation is set, so every S3 operation would be recorded under that one\); accepted: a Stats whose operation is unset/,
    );
    // The refused call left the client unmetered; stats with a component, or that record nothing, are accepted.
    meterS3Client(client, real.backup.scope({ component: 'MyEngine' }))();
    meterS3Client(client, noopStats)();
    meterS3Client(client, noopStats.restore)();
  });
});
