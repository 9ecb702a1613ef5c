// Google Cloud Storage through meterHttpRequests: @google-cloud/storage pointed (apiEndpoint) at a local HTTP server
// of the test's own that answers the calls of its JSON API used here (multipart and resumable uploads, media
// downloads) and answers 503 to chosen requests. The server stands in for GCS because no GCS server installs here
// (none is on the npm registry or in Debian). Every attempt the client made, retries included, must be counted.
// In process, but in the e2e tier: the library waits at least 1 s before each retry, and it is slow to load.
import { randomBytes } from 'node:crypto';
import { IdempotencyStrategy, Storage } from '@google-cloud/storage';
import { Implementation } from 'backupstats';
import { HttpOperation, meterHttpRequests } from 'backupstats/http';
import { createRecordingStats } from 'backupstats/testing';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { type StandIn, startStandIn } from '../support/gcs-stand-in.js';

let standIn: StandIn;
beforeAll(async () => {
  standIn = await startStandIn();
});
afterAll(async () => {
  await standIn?.stop();
});

describe('meterHttpRequests with @google-cloud/storage (JSON API, against a local stand-in for GCS)', () => {
  it('counts every attempt, retries of 503s included, as the server received them', async () => {
    const stats = createRecordingStats();
    onTestFinished(meterHttpRequests(stats.scope({ implementation: Implementation.GCS }), { origin: standIn.origin }));
    const storage = new Storage({
      apiEndpoint: standIn.origin,
      projectId: 'backups',
      // Retry uploads too (they carry no precondition here), after 1 s: the shortest wait the library allows.
      retryOptions: {
        maxRetries: 3,
        retryDelayMultiplier: 1,
        maxRetryDelay: 1,
        idempotencyStrategy: IdempotencyStrategy.RetryAlways,
      },
    });
    const bucket = storage.bucket('backups');
    const big = randomBytes(300_000);
    const small = Buffer.from('manifest: 2 objects\n');
    // Requests: 1 multipart upload (503), 2 its retry; 3 resumable start, 4 its PUT; 5 download (503), 6 its retry;
    // 7 download.
    standIn.failing = new Set([1, 5]);
    await bucket.file('db/manifest').save(small, { resumable: false, validation: false });
    await bucket.file('db/big.bin').save(big, { resumable: true, validation: false });
    const [downloaded] = await bucket.file('db/big.bin').download({ validation: false });
    expect(downloaded.equals(big)).toBe(true);
    const [manifest] = await bucket.file('db/manifest').download({ validation: false });
    expect(manifest.equals(small)).toBe(true);

    expect(standIn.counts).toMatchObject({ requests: 7, unavailable: 2 });
    await expect.poll(() => stats.totals({ operation: HttpOperation.RequestSend }).count).toBe(7);
    expect(stats.totals({ operation: HttpOperation.RequestThrottled }).count).toBe(2);
    expect(stats.totals({ operation: HttpOperation.RequestFailed }).count).toBe(0);
    // The uploads go out chunked: their bodies count as on the wire, chunk framing included (a few bytes a chunk).
    const bodies = standIn.counts.requestBodyBytes + standIn.counts.responseBodyBytes;
    const bytes = stats.totals({ operation: HttpOperation.RequestSend }).bytes;
    expect(bytes).toBeGreaterThanOrEqual(bodies);
    expect(bytes).toBeLessThan(bodies + 2_000);
    expect(stats.calls.every((call) => call.labels.implementation === 'GCS')).toBe(true);
  });
});
