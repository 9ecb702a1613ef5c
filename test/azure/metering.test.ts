// meterBlobClient with @azure/storage-blob against Azurite (Microsoft's Azure Storage server) through a counting
// proxy of the test's own that answers 503 ServerBusy to every Nth request: attempts metered = requests the proxy
// received, throttled = the 503s it answered, bytes = the bodies it carried, and the object-level totals stay exact.
// test/http/azure-blob.test.ts tests the rest in process, against a stand-in for Blob storage.
import { createHash, randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { HttpOperation, meterBlobClient } from 'backupstats/azure';
import { createRecordingStats } from 'backupstats/testing';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { type AzureProxy, blobService, type Endpoint, startAzureProxy, startAzurite } from '../support/azurite.js';

const MiB = 1024 * 1024;

let azurite: Endpoint;
let proxy: AzureProxy;

beforeAll(async () => {
  azurite = await startAzurite();
  proxy = await startAzureProxy(azurite);
});
afterAll(async () => {
  await proxy?.stop();
  await azurite?.stop();
});

const sha256 = (data: Uint8Array): string => createHash('sha256').update(data).digest('hex');

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('meterBlobClient against Azurite', () => {
  it('one HTTP:Request:Send per request the proxy saw, Throttled per ServerBusy it answered, bytes of both bodies, one write per block', async () => {
    const stats = createRecordingStats();
    const service = blobService(proxy);
    meterBlobClient(service, stats);
    const container = service.getContainerClient('backups');
    const big = randomBytes(10 * MiB + 12_345);
    const small = Buffer.from('manifest: 2 blobs\n');

    const before = { ...proxy.counts };
    proxy.busyEvery(3);
    onTestFinished(() => proxy.busyEvery(0));
    await container.create();
    // Three blocks of 4 MiB at most and their commit; two blocks in flight at once.
    await container
      .getBlockBlobClient('db/big.bin')
      .uploadData(big, { blockSize: 4 * MiB, maxSingleShotSize: MiB, concurrency: 2 });
    // Smaller than maxSingleShotSize: one Put Blob.
    await container.getBlockBlobClient('db/manifest').uploadData(small, { maxSingleShotSize: MiB });
    const downloaded = await container.getBlobClient('db/big.bin').download();
    expect(sha256(await readAll(downloaded.readableStreamBody as Readable))).toBe(sha256(big));

    const requests = proxy.counts.requests - before.requests;
    const serverBusy = proxy.counts.serverBusy - before.serverBusy;
    const bodies =
      proxy.counts.requestBodyBytes -
      before.requestBodyBytes +
      (proxy.counts.responseBodyBytes - before.responseBodyBytes);
    // create, 3 blocks, commit, Put Blob, Get Blob, and a retry for every third request.
    expect(requests).toBeGreaterThanOrEqual(7 + 3);
    expect(serverBusy).toBeGreaterThanOrEqual(3);
    const attempts = stats.totals({ operation: HttpOperation.RequestSend });
    await expect.poll(() => stats.totals({ operation: HttpOperation.RequestSend }).count).toBe(requests);
    expect(stats.totals({ operation: HttpOperation.RequestSend }).bytes).toBe(bodies);
    expect(attempts.count).toBe(requests);
    expect(stats.totals({ operation: HttpOperation.RequestThrottled }).count).toBe(serverBusy);
    expect(stats.totals({ operation: HttpOperation.RequestFailed }).count).toBe(0);
    // Object level: once per operation whatever its retries; every byte uploaded is a byte stored.
    expect(stats.totals({ operation: 'Destination:Open' }).count).toBe(1);
    expect(stats.totals({ operation: 'Destination:Write' })).toMatchObject({
      count: 4,
      bytes: big.length + small.length,
    });
    expect(stats.totals({ operation: 'Destination:Close' }).count).toBe(1);
    expect(stats.totals({ operation: 'Source:Open' }).count).toBe(1);
    expect(stats.totals({ operation: 'Source:Read' }).bytes).toBe(big.length);
    expect(stats.totals({ operation: 'Source:Close' }).count).toBe(1);
    expect(stats.calls.every((call) => call.labels.component === 'BackupStorage')).toBe(true);
    expect(stats.calls.every((call) => call.labels.implementation === 'Azure')).toBe(true);
  });

  it('records a 404 and a 409 as failed attempts, not as object operations', async () => {
    const stats = createRecordingStats();
    const service = blobService(proxy);
    meterBlobClient(service, stats);
    const container = service.getContainerClient('failures');
    await container.create();
    await expect(container.create()).rejects.toMatchObject({ statusCode: 409 });
    await expect(container.getBlobClient('missing').download()).rejects.toMatchObject({ statusCode: 404 });
    expect(stats.totals({ operation: HttpOperation.RequestSend }).count).toBe(3);
    expect(stats.totals({ operation: HttpOperation.RequestFailed }).count).toBe(2);
    expect(stats.totals({ operation: 'Destination:Open' }).count).toBe(1);
    expect(stats.totals({ operation: 'Source:Open' }).count).toBe(0);
  });
});
