// The same S3 workload metered twice at once: by meterS3Client (the AWS SDK's middleware stack) and by
// meterHttpRequests (Node's HTTP channels, for the proxy's origin). Both must count the attempts the proxy received,
// and agree on the attempts that did not succeed.
import { randomBytes } from 'node:crypto';
import { CreateBucketCommand, GetObjectCommand, HeadObjectCommand } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { HttpOperation, meterHttpRequests } from 'backupstats/http';
import { meterS3Client, S3Operation } from 'backupstats/s3';
import { createRecordingStats } from 'backupstats/testing';
import { describe, expect, it, onTestFinished } from 'vitest';
import { s3Client, startS3Proxy, startS3Server } from '../support/s3.js';

const MiB = 1024 * 1024;

describe('meterHttpRequests on S3 next to meterS3Client', () => {
  it('counts the attempts meterS3Client counts on the same workload, and the same that did not succeed', async () => {
    const server = await startS3Server();
    onTestFinished(() => server.stop());
    // The first attempt of every third request is answered 503 SlowDown, of every third but one reset.
    let seen = 0;
    const proxy = await startS3Proxy(server, ({ attempt }) => {
      if (attempt > 1) return undefined;
      seen += 1;
      return seen % 3 === 0 ? 'slowdown' : seen % 3 === 1 ? 'reset' : undefined;
    });
    onTestFinished(() => proxy.stop());
    const direct = s3Client(server);
    onTestFinished(() => direct.destroy());
    await direct.send(new CreateBucketCommand({ Bucket: 'backups' }));

    const bySdk = createRecordingStats();
    const byHttp = createRecordingStats();
    const client = s3Client(proxy, { maxAttempts: 5 });
    onTestFinished(() => client.destroy());
    meterS3Client(client, bySdk);
    onTestFinished(meterHttpRequests(byHttp.scope({ implementation: 'S3' }), { origin: proxy.url }));

    const objects = [randomBytes(11 * MiB), randomBytes(70_000)];
    for (const [i, body] of objects.entries()) {
      await new Upload({
        client,
        params: { Bucket: 'backups', Key: `object-${i}`, Body: body },
        partSize: 5 * MiB,
        queueSize: 2,
      }).done();
      const got = await client.send(new GetObjectCommand({ Bucket: 'backups', Key: `object-${i}` }));
      await (got.Body as { transformToByteArray(): Promise<Uint8Array> }).transformToByteArray();
    }
    await expect(client.send(new HeadObjectCommand({ Bucket: 'backups', Key: 'missing' }))).rejects.toThrow();

    expect(proxy.counts.slowDowns).toBeGreaterThan(0);
    expect(proxy.counts.resets).toBeGreaterThan(0);
    await expect.poll(() => byHttp.totals({ operation: HttpOperation.RequestSend }).count).toBe(proxy.counts.requests);
    const sdk = (operation: string) => bySdk.totals({ operation }).count;
    const http = (operation: string) => byHttp.totals({ operation }).count;
    expect(sdk(S3Operation.RequestSend)).toBe(proxy.counts.requests);
    // Every 503 is throttling to the HTTP meter; meterS3Client follows the SDK's rule, which needs the error code
    // of the body (SlowDown), and a response to HEAD has no body: such an attempt is failed there, throttled here.
    expect(http(HttpOperation.RequestThrottled)).toBe(proxy.counts.slowDowns);
    expect(sdk(S3Operation.RequestThrottled)).toBeLessThanOrEqual(proxy.counts.slowDowns);
    expect(http(HttpOperation.RequestFailed) + http(HttpOperation.RequestThrottled)).toBe(
      sdk(S3Operation.RequestFailed) + sdk(S3Operation.RequestThrottled),
    );
    // The resets and the 404 of HeadObject are failures to both.
    expect(http(HttpOperation.RequestFailed)).toBe(proxy.counts.resets + 1);
  });
});
