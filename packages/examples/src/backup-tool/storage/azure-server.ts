import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { BlobServiceClient } from '@azure/storage-blob';
import type { AzureLocation } from './azure-storage.js';

/** Azurite in a child process, for the demo's `--storage azure` round trip. */
export interface EmbeddedAzure {
  /** The container the round trip uses, under the prefix `backup/`. */
  readonly location: AzureLocation;
  /** `http://127.0.0.1:<port>/devstoreaccount1`, for messages. */
  readonly endpoint: string;
  close(): Promise<void>;
}

// Azurite's published development account.
const ACCOUNT = 'devstoreaccount1';
const KEY = 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==';
const CONTAINER = 'backupstats-demo';

/**
 * Starts azurite-blob (Microsoft's Azure Storage server, from the npm registry, storing blobs in `directory`) on
 * 127.0.0.1 at a port the OS picks, without telemetry, and creates the container. `require('azurite')` loads nothing
 * usable: its blob server is started as its own binary, which prints the port it listens on.
 */
export async function startEmbeddedAzurite(directory: string): Promise<EmbeddedAzure> {
  const bin = join(
    dirname(createRequire(import.meta.url).resolve('azurite/package.json')),
    'dist',
    'src',
    'blob',
    'main.js',
  );
  const child = spawn(
    process.execPath,
    [
      bin,
      '--blobHost',
      '127.0.0.1',
      '--blobPort',
      '0',
      '-l',
      directory,
      '--skipApiVersionCheck',
      '--loose',
      '--disableTelemetry',
      '--silent',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const port = await new Promise<number>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const found = /listens on http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
      if (found === null) return;
      child.stdout?.off('data', onData);
      child.stdout?.resume();
      resolve(Number(found[1]));
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`azurite-blob exited (${code}) before listening:\n${output}`)));
  });
  const endpoint = `http://127.0.0.1:${port}/${ACCOUNT}`;
  const connectionString = `DefaultEndpointsProtocol=http;AccountName=${ACCOUNT};AccountKey=${KEY};BlobEndpoint=${endpoint};`;
  await BlobServiceClient.fromConnectionString(connectionString).getContainerClient(CONTAINER).create();
  return {
    location: { connectionString, container: CONTAINER, prefix: 'backup/' },
    endpoint,
    async close() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
