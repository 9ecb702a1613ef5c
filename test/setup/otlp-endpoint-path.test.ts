// OTEL_EXPORTER_OTLP_ENDPOINT with a path and a query: the signal's path goes after the endpoint's path, not after
// its query. "http://host/base?token=abc" must not become "http://host/base?token=abc/v1/metrics" (path /base,
// query "token=abc/v1/metrics"), which the failure message's "…/base?<redacted>" would hide.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe } from 'vitest';
import { it } from '../support/fixtures.js';

/** An HTTP server that keeps the target of every request and answers 200 with an empty body. */
async function pathRecorder(): Promise<{ url: string; targets: string[]; stop(): Promise<void> }> {
  const targets: string[] = [];
  const server = createServer((req, res) => {
    targets.push(`${req.method} ${req.url}`);
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    targets,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe.concurrent('the general OTLP endpoint with a path and a query', () => {
  const cases = [
    ['/base?token=abc', 'POST /base/v1/metrics?token=abc'],
    ['/base/?token=abc', 'POST /base/v1/metrics?token=abc'],
    ['?token=abc', 'POST /v1/metrics?token=abc'],
    ['/base', 'POST /base/v1/metrics'],
  ] as const;
  for (const [tail, target] of cases) {
    it(`${tail}: the exports go to ${target}`, async ({ expect, onTestFinished, startFromEnv }) => {
      const server = await pathRecorder();
      onTestFinished(() => server.stop());
      const stats = await startFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: `${server.url}${tail}` });
      stats.backup.scope({ operation: 'Source:Read' }).timedIncrementBytes(4096, 1);
      await stats.shutdown();
      expect(server.targets).toEqual([target]);
    });
  }
});
