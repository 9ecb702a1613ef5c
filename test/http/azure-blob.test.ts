// meterBlobClient with the real @azure/storage-blob client against a local server that stands in for Azure Blob
// storage in this process (test/support/blob-stand-in.ts): it answers the calls made here, counts the requests and
// the body bytes both ways, and answers an error, a reset or a cut-off body where a test tells it to. test/azure,
// against Azurite (Microsoft's Azure Storage server), stays the test against a real server.
import type { Readable } from 'node:stream';
import { AnonymousCredential, BlobServiceClient, type ContainerClient } from '@azure/storage-blob';
import { createBackupStats } from 'backupstats';
import { HttpOperation, meterBlobClient } from 'backupstats/azure';
import { createRecordingStats, type RecordingStats } from 'backupstats/testing';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { type BlobStandIn, errorBody, type Interception, startBlobStandIn } from '../support/blob-stand-in.js';

let standIn: BlobStandIn;

beforeAll(async () => {
  standIn = await startBlobStandIn();
});
afterAll(async () => {
  await standIn?.stop();
});

/** A service client of the stand-in, retrying at once, up to `maxTries` tries per operation. */
function service(maxTries = 3): BlobServiceClient {
  return new BlobServiceClient(`${standIn.origin}/account`, new AnonymousCredential(), {
    retryOptions: { maxTries, retryDelayInMs: 1, maxRetryDelayInMs: 1 },
  });
}

let containers = 0;

/**
 * A new container, made ready by `prepare` (its blobs), then metered: on a metered service client whose stats record
 * from then on. The stand-in's counts start there too, and it answers as Blob storage from the end of the test.
 */
async function meteredContainer(
  options: { maxTries?: number; prepare?: (container: ContainerClient) => Promise<unknown> } = {},
) {
  const client = service(options.maxTries);
  const container = client.getContainerClient(`c${++containers}`);
  await container.create();
  await options.prepare?.(container);
  const stats = createRecordingStats();
  onTestFinished(meterBlobClient(client, stats));
  standIn.reset();
  onTestFinished(() => standIn.reset());
  return { stats, container, client };
}

const totals = (stats: RecordingStats, operation: string) => stats.totals({ operation });

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Answers `answer` to the requests `match` picks, the first `times` of them. */
function interceptWhere(
  match: (method: string, url: string) => boolean,
  answer: Exclude<Interception, undefined>,
  times = 1,
): void {
  let left = times;
  standIn.intercept = ({ method, url }) => {
    if (left === 0 || !match(method, url)) return undefined;
    left -= 1;
    return answer;
  };
}

describe('meterBlobClient against a stand-in for Blob storage', () => {
  it('records one Send per request with both bodies as the server counted them, and each object operation once', async () => {
    const { stats, container } = await meteredContainer();
    const big = Buffer.alloc(3000, 1);
    const small = Buffer.from('manifest: 2 blobs\n');
    const started = performance.now();
    // Three blocks and their commit; then one Put Blob.
    await container.getBlockBlobClient('db/big.bin').uploadData(big, { blockSize: 1024, maxSingleShotSize: 1000 });
    await container.getBlockBlobClient('db/manifest').uploadData(small);
    const download = await container.getBlobClient('db/big.bin').download();
    expect(await readAll(download.readableStreamBody as Readable)).toEqual(big);
    const elapsed = performance.now() - started;

    expect(standIn.counts.requests).toBe(6);
    expect(totals(stats, HttpOperation.RequestSend)).toMatchObject({
      count: 6,
      bytes: standIn.counts.requestBodyBytes + standIn.counts.responseBodyBytes,
    });
    expect(standIn.counts.responseBodyBytes).toBe(big.length);
    expect(totals(stats, HttpOperation.RequestFailed).count).toBe(0);
    expect(totals(stats, HttpOperation.RequestThrottled).count).toBe(0);
    expect(totals(stats, 'Destination:Write')).toMatchObject({ count: 4, bytes: big.length + small.length });
    expect(stats.calls.filter((call) => call.labels.operation === 'Destination:Write').map((c) => c.bytes)).toEqual([
      1024,
      1024,
      952,
      small.length,
    ]);
    expect(totals(stats, 'Destination:Close')).toMatchObject({ count: 1, bytes: 0 });
    expect(totals(stats, 'Destination:Open').count).toBe(0);
    expect(totals(stats, 'Source:Open').count).toBe(1);
    expect(totals(stats, 'Source:Read').bytes).toBe(big.length);
    expect(totals(stats, 'Source:Close').count).toBe(1);
    expect(stats.calls.every((call) => call.labels.component === 'BackupStorage')).toBe(true);
    expect(stats.calls.every((call) => call.labels.implementation === 'Azure')).toBe(true);
    // Each attempt and operation is timed from its start to its end: within the test's own time.
    const timed = stats.calls.filter((call) => call.weight === 1);
    expect(timed.length).toBeGreaterThan(10);
    expect(timed.every((call) => call.durationMillis > 0 && call.durationMillis <= elapsed)).toBe(true);
  });

  it('records a container creation and an append or page blob creation as Destination:Open, and their writes', async () => {
    const { stats, client } = await meteredContainer();
    const container = client.getContainerClient(`c${++containers}`);
    await container.create();
    expect(totals(stats, 'Destination:Open').count).toBe(1);
    const append = container.getAppendBlobClient('log');
    await append.create();
    await append.appendBlock(Buffer.from('hello'), 5);
    const pages = container.getPageBlobClient('disk');
    await pages.create(1024);
    await pages.uploadPages(Buffer.alloc(512, 1), 0, 512);
    expect(totals(stats, 'Destination:Open').count).toBe(3);
    expect(totals(stats, 'Destination:Write')).toMatchObject({ count: 2, bytes: 517 });
    expect(totals(stats, 'Destination:Close').count).toBe(0);
    expect(totals(stats, HttpOperation.RequestSend)).toMatchObject({ count: 5, bytes: 517 });
  });

  it('records other requests as attempts only: copies, metadata, properties, the block list, deletions', async () => {
    const { stats, container } = await meteredContainer({
      prepare: (prepared) => prepared.getBlockBlobClient('source').uploadData(Buffer.from('abc')),
    });
    const source = container.getBlobClient('source').url;
    // Put Blob From URL names a blob type but copies: no bytes of the caller's are written.
    await container.getBlockBlobClient('copy').syncUploadFromURL(source);
    await container.getBlobClient('copy2').syncCopyFromURL(source);
    await container.getBlobClient('copy').setMetadata({ kept: 'yes' });
    await container.setMetadata({ kept: 'yes' });
    await container.getProperties();
    await container.getBlockBlobClient('copy').getBlockList('all');
    await container.getBlobClient('copy').delete();
    await container.delete();
    expect(stats.calls.map((call) => call.labels.operation)).toEqual(Array(8).fill(HttpOperation.RequestSend));
  });

  it('counts no response body for HEAD, 204 and 304, whatever Content-Length they declare', async () => {
    const { stats, container } = await meteredContainer({
      prepare: (prepared) => prepared.getBlockBlobClient('sized').uploadData(Buffer.alloc(700, 1)),
    });
    const blob = container.getBlockBlobClient('sized');
    const properties = await blob.getProperties();
    expect(properties.contentLength).toBe(700);
    for (const status of [204, 304]) {
      interceptWhere((method) => method === 'GET', { status, code: 'NoBody' });
      await blob.download().catch(() => undefined);
    }
    expect(stats.calls.map((call) => [call.labels.operation, call.bytes])).toEqual([
      [HttpOperation.RequestSend, 0],
      [HttpOperation.RequestSend, 0],
      [HttpOperation.RequestSend, 0],
    ]);
  });

  it('records a 503 ServerBusy and a 429 as throttled attempts and a 500 as a failed one; a retried write once', async () => {
    const { stats, container } = await meteredContainer();
    const block = (method: string, url: string) => method === 'PUT' && url.includes('comp=block&');
    const data = Buffer.alloc(100, 1);
    const blob = container.getBlockBlobClient('a');
    // The SDK retries a 503 and a 500, not a 429.
    interceptWhere(block, { status: 503, code: 'ServerBusy' });
    await blob.stageBlock('MDA=', data, data.length);
    interceptWhere(block, { status: 429, code: 'TooManyRequests' });
    await expect(blob.stageBlock('MDE=', data, data.length)).rejects.toMatchObject({ statusCode: 429 });
    interceptWhere(block, { status: 500, code: 'InternalError' });
    await blob.stageBlock('MDI=', data, data.length);

    expect(standIn.counts.requests).toBe(5);
    const busy = errorBody('ServerBusy').length;
    const tooMany = errorBody('TooManyRequests').length;
    const internal = errorBody('InternalError').length;
    expect(totals(stats, HttpOperation.RequestSend)).toMatchObject({
      count: 5,
      bytes: 500 + busy + tooMany + internal,
    });
    expect(totals(stats, HttpOperation.RequestThrottled)).toMatchObject({ count: 2, bytes: 200 + busy + tooMany });
    expect(totals(stats, HttpOperation.RequestFailed)).toMatchObject({ count: 1, bytes: 100 + internal });
    expect(totals(stats, 'Destination:Write')).toMatchObject({ count: 2, bytes: 200 });
  });

  it('records a 404 and a 409 as failed attempts with their error bodies, not as object operations', async () => {
    const { stats, container } = await meteredContainer();
    await expect(container.create()).rejects.toMatchObject({ statusCode: 409 });
    await expect(container.getBlobClient('missing').download()).rejects.toMatchObject({ statusCode: 404 });
    interceptWhere(() => true, { status: 404, code: 'ContainerNotFound' });
    await expect(container.getBlockBlobClient('gone').upload('x', 1)).rejects.toMatchObject({ statusCode: 404 });
    const failed = stats.calls.filter((call) => call.labels.operation === HttpOperation.RequestFailed);
    expect(failed.map((call) => call.bytes)).toEqual([
      errorBody('ContainerAlreadyExists').length,
      errorBody('BlobNotFound').length,
      1 + errorBody('ContainerNotFound').length,
    ]);
    expect(totals(stats, HttpOperation.RequestSend).count).toBe(3);
    expect(totals(stats, 'Destination:Open').count).toBe(0);
    expect(totals(stats, 'Destination:Write').count).toBe(0);
    expect(totals(stats, 'Source:Open').count).toBe(0);
  });

  it('records a connection reset as a failed attempt with the bytes sent, and the caller gets the error', async () => {
    const { stats, container } = await meteredContainer({ maxTries: 1 });
    interceptWhere(() => true, 'reset');
    await expect(container.getBlockBlobClient('a').upload('twelve bytes', 12)).rejects.toThrow();
    expect(standIn.counts.requests).toBe(1);
    expect(stats.calls.map((call) => [call.labels.operation, call.bytes])).toEqual([
      [HttpOperation.RequestSend, 12],
      [HttpOperation.RequestFailed, 12],
    ]);
  });

  it('records a download cut off mid-body as a failed attempt, and its reads as what came', async () => {
    const { stats, container } = await meteredContainer({
      prepare: (prepared) => prepared.getBlockBlobClient('big').uploadData(Buffer.alloc(3000, 1)),
    });
    interceptWhere((method) => method === 'GET', { cut: 1000, length: 3000 });
    const download = await container.getBlobClient('big').download(0, undefined, { maxRetryRequests: 0 });
    await expect(readAll(download.readableStreamBody as Readable)).rejects.toThrow();
    await expect.poll(() => totals(stats, HttpOperation.RequestFailed).count).toBe(1);
    // The attempt counts the declared length: what the response said it carried.
    expect(totals(stats, HttpOperation.RequestSend)).toMatchObject({ count: 1, bytes: 3000 });
    expect(totals(stats, HttpOperation.RequestFailed)).toMatchObject({ count: 1, bytes: 3000 });
    expect(totals(stats, 'Source:Open').count).toBe(1);
    expect(totals(stats, 'Source:Read').bytes).toBe(1000);
  });
});

describe('meterBlobClient: set-up', () => {
  it('meters the clients made from a metered one, refuses to meter their shared pipeline twice, and stops when removed', async () => {
    const stats = createRecordingStats();
    const client = service();
    const unmeter = meterBlobClient(client, stats.scope({ implementation: 'Azurite' }));
    const container = client.getContainerClient(`c${++containers}`);
    expect(() => meterBlobClient(container, stats)).toThrow(
      expect.objectContaining({
        code: 'BACKUPSTATS_INVALID_ARGUMENT',
        message: expect.stringMatching(
          /^backupstats: meterBlobClient client is an instance of ContainerClient \(its pipeline is metered already\); accepted: a client whose pipeline is not metered yet \(clients made from a metered one share its pipeline; /,
        ),
      }),
    );
    await container.create();
    expect(stats.calls.map((call) => call.labels.implementation)).toEqual(['Azurite', 'Azurite']);
    unmeter();
    await container.getBlockBlobClient('after').uploadData(Buffer.from('x'));
    expect(stats.calls).toHaveLength(2);
    // Removed, it can be metered again; the first function, called again, leaves the new meter in place.
    const again = createRecordingStats();
    onTestFinished(meterBlobClient(container, again));
    unmeter();
    await container.getBlockBlobClient('after').uploadData(Buffer.from('x'));
    expect(again.calls.map((call) => call.labels.operation)).toEqual([HttpOperation.RequestSend, 'Destination:Write']);
  });

  it('refuses what is not a client of @azure/storage-blob, and stats that are not Stats', () => {
    const refused = (client: unknown) =>
      expect(() => meterBlobClient(client as never, createRecordingStats())).toThrow(
        expect.objectContaining({
          name: 'TypeError',
          code: 'BACKUPSTATS_INVALID_ARGUMENT',
          message: expect.stringMatching(
            /^backupstats: meterBlobClient client is .* \(it has no HTTP pipeline\); accepted: a BlobServiceClient, ContainerClient or BlobClient of @azure\/storage-blob$/,
          ),
        }),
      );
    refused({});
    refused(undefined);
    refused(null);
    refused({ storageClientContext: {} });
    refused({ pipeline: {} });
    // A pipeline lacking one of the three methods used.
    const pipeline = (service() as unknown as { storageClientContext: { pipeline: Record<string, unknown> } })
      .storageClientContext.pipeline;
    const { addPolicy, removePolicy, getOrderedPolicies } = pipeline;
    refused({ storageClientContext: { pipeline: { removePolicy, getOrderedPolicies } } });
    refused({ storageClientContext: { pipeline: { addPolicy, getOrderedPolicies } } });
    refused({ storageClientContext: { pipeline: { addPolicy, removePolicy } } });
    expect(() => meterBlobClient(service(), {} as never)).toThrow(
      expect.objectContaining({ code: 'BACKUPSTATS_INVALID_ARGUMENT', message: expect.stringMatching(/stats/) }),
    );
  });

  it('refuses stats whose operation is set: it names every Azure operation itself', () => {
    const real = createBackupStats();
    onTestFinished(() => real.shutdown());
    const client = service();
    expect(() => meterBlobClient(client, real.backup.scope({ operation: 'Mine' }))).toThrow(
      expect.objectContaining({
        code: 'BACKUPSTATS_INVALID_ARGUMENT',
        message: expect.stringMatching(
          /^backupstats: meterBlobClient stats is an instance of \w+ \(its operation is set, so every Azure operation would be recorded under that one\); accepted: a Stats whose operation is unset, .*: meterBlobClient sets HTTP:Request:Send, Destination:Write, Source:Read, … itself$/,
        ),
      }),
    );
    // The refused call left the client unmetered: stats with a component are accepted.
    meterBlobClient(client, real.backup.scope({ component: 'MyEngine' }))();
  });
});
