// meterHttpRequests over TLS: https.request to a local HTTPS server of the test's own, with a self-signed
// certificate that openssl makes in a child process (hence this tier). test/http holds the plain-HTTP tests.
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { HttpOperation, meterHttpRequests } from 'backupstats/http';
import { createRecordingStats, type RecordingStats } from 'backupstats/testing';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { type StorageServer, startStorageServer } from '../support/http-storage.js';
import { expectWorkloadRecorded, nodeRequest, STATUSES, totals, workload } from '../support/http-workload.js';
import { type Certificate, selfSignedCertificate } from '../support/self-signed-certificate.js';

let tls: StorageServer;
let certificate: Certificate;

beforeAll(async () => {
  certificate = selfSignedCertificate();
  tls = await startStorageServer(certificate);
});
afterAll(async () => {
  await tls?.stop();
});

/** Recording stats metered on the server, unmetered when the test ends; the server's counts start from zero. */
function metered(): RecordingStats {
  tls.reset();
  const stats = createRecordingStats();
  onTestFinished(meterHttpRequests(stats, { origin: tls.origin }));
  return stats;
}

describe('meterHttpRequests over TLS', () => {
  it('meters https.request to a server with a self-signed certificate: one Send per request, 4xx/5xx failed, 429/503 throttled', async () => {
    const stats = metered();
    const started = performance.now();
    const statuses = await workload(
      async (path, method, body) =>
        (await nodeRequest(`${tls.origin}${path}`, { method, body, ca: certificate.cert })).status,
    );
    expect(statuses).toEqual(STATUSES);
    await expectWorkloadRecorded(stats, tls, started);
  });

  it('counts a chunked node:https body as it went over the wire, chunk framing included, on new and reused sockets', async () => {
    const chunks = [Buffer.alloc(1000, 1), Buffer.alloc(70_000, 2), Buffer.alloc(5, 3)];
    // Each chunk goes out as "<size in hex>\r\n<chunk>\r\n", and the body ends with "0\r\n\r\n".
    const wire = chunks.reduce((sum, chunk) => sum + chunk.length.toString(16).length + 4 + chunk.length, 5);
    const decoded = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
    const stats = metered();
    const agent = new HttpsAgent({ keepAlive: true, maxSockets: 1 });
    onTestFinished(() => agent.destroy());
    for (let i = 0; i < 3; i++) {
      await new Promise<void>((resolve, reject) => {
        const req = httpsRequest(`${tls.origin}/echo`, { method: 'PUT', agent, ca: certificate.cert }, (res) => {
          res.resume();
          res.on('end', resolve);
        });
        req.on('error', reject);
        for (const chunk of chunks) req.write(chunk);
        req.end();
      });
    }
    expect(tls.counts.connections).toBe(1);
    expect(tls.counts.requestBodyBytes).toBe(3 * decoded);
    await expect.poll(() => totals(stats, HttpOperation.RequestSend).count).toBe(3);
    // Sent: the body on the wire; received: the echoed body.
    expect(totals(stats, HttpOperation.RequestSend).bytes).toBe(3 * (wire + decoded));
  });
});
