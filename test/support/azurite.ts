// Azurite (npm `azurite`, Microsoft's Azure Storage server) on 127.0.0.1 at a port the OS picks, and a counting
// proxy in front of any HTTP server that can answer 503 ServerBusy to every Nth request, for the Azure tests.
import { BlobServiceClient, type StoragePipelineOptions, StorageSharedKeyCredential } from '@azure/storage-blob';
import { AZURITE_ACCOUNT, AZURITE_KEY, startAzuriteBlob } from '@backupstats/testkit/azurite';
import { type Endpoint, type ProxyCounts, startCountingProxy } from './counting-proxy.js';

export type { Endpoint };

export { AZURITE_ACCOUNT, AZURITE_KEY };

/** Starts azurite-blob with its data in a new temporary folder (removed by `stop`). */
export async function startAzurite(): Promise<Endpoint> {
  const server = await startAzuriteBlob();
  return { url: `http://127.0.0.1:${server.port}`, port: server.port, stop: () => server.stop() };
}

/** What the proxy received and answered. */
export interface AzureProxyCounts extends ProxyCounts {
  serverBusy: number;
}

/** A running proxy and its counts. */
export interface AzureProxy extends Endpoint {
  readonly counts: AzureProxyCounts;
  /** Answers 503 ServerBusy to every `n`th request from now on (0: none). */
  busyEvery(n: number): void;
}

const SERVER_BUSY = Buffer.from(
  '<?xml version="1.0" encoding="utf-8"?><Error><Code>ServerBusy</Code><Message>The server is busy.</Message></Error>',
);

/** Starts a proxy to `target` on 127.0.0.1 that counts every request and the body bytes both ways. */
export async function startAzureProxy(target: Endpoint): Promise<AzureProxy> {
  const counts: AzureProxyCounts = { requests: 0, serverBusy: 0, requestBodyBytes: 0, responseBodyBytes: 0 };
  let every = 0;
  const proxy = await startCountingProxy(target, counts, ({ index }) => {
    if (every === 0 || index % every !== 0) return undefined;
    counts.serverBusy += 1;
    return {
      status: 503,
      headers: { 'content-type': 'application/xml', 'x-ms-error-code': 'ServerBusy' },
      body: SERVER_BUSY,
    };
  });
  return {
    ...proxy,
    counts,
    busyEvery(n: number) {
      every = n;
    },
  };
}

/**
 * A service client of the development account at `endpoint`, retrying at once (the SDK waits seconds by default),
 * up to `maxTries` tries per operation.
 */
export function blobService(endpoint: Endpoint, options: StoragePipelineOptions = {}): BlobServiceClient {
  return new BlobServiceClient(
    `${endpoint.url}/${AZURITE_ACCOUNT}`,
    new StorageSharedKeyCredential(AZURITE_ACCOUNT, AZURITE_KEY),
    { retryOptions: { maxTries: 5, retryDelayInMs: 1, maxRetryDelayInMs: 5 }, ...options },
  );
}
