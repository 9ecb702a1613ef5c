import { AZURITE_ACCOUNT, AZURITE_KEY, startAzuriteBlob } from '@backupstats/testkit/azurite';

/** Azurite's blob server on 127.0.0.1 at a port the OS picks, its data in a temporary folder. */
export interface BenchAzurite {
  /** `http://127.0.0.1:<port>/devstoreaccount1` */
  readonly url: string;
  readonly account: string;
  readonly key: string;
  stop(): Promise<void>;
}

/** Starts azurite-blob (Microsoft's Azure Storage server, from the npm registry) without telemetry. */
export async function startBenchAzurite(): Promise<BenchAzurite> {
  const server = await startAzuriteBlob();
  return {
    url: `http://127.0.0.1:${server.port}/${AZURITE_ACCOUNT}`,
    account: AZURITE_ACCOUNT,
    key: AZURITE_KEY,
    stop: () => server.stop(),
  };
}
