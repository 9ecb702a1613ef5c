// Azurite's blob server (npm `azurite`, Microsoft's Azure Storage server) in a child process, on 127.0.0.1 at a port
// the OS picks and without telemetry: what the Azure tests and the storage benchmarks run against.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** Azurite's well-known development account and its key. */
export const AZURITE_ACCOUNT = 'devstoreaccount1';
export const AZURITE_KEY = 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==';

/** A running azurite-blob. */
export interface AzuriteBlob {
  readonly port: number;
  /** Ends the server and removes its data folder. */
  stop(): Promise<void>;
}

/**
 * Starts azurite-blob with its data in a new temporary folder. `require('azurite')` loads nothing usable: the blob
 * server is its own program, which prints the port it listens on.
 */
export async function startAzuriteBlob(): Promise<AzuriteBlob> {
  const directory = mkdtempSync(join(tmpdir(), 'backupstats-azurite-'));
  const main = join(dirname(createRequire(import.meta.url).resolve('azurite/package.json')), 'dist/src/blob/main.js');
  const args = ['--blobHost', '127.0.0.1', '--blobPort', '0', '-l', directory];
  const child: ChildProcess = spawn(
    process.execPath,
    [main, ...args, '--skipApiVersionCheck', '--loose', '--disableTelemetry', '--silent'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const port = await new Promise<number>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const found = /listens on http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
      if (found === null) return;
      child.stdout?.off('data', onData);
      // Nothing more is read: drain it so that the pipe never fills.
      child.stdout?.resume();
      resolve(Number(found[1]));
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`azurite-blob exited (${code}) before listening:\n${output}`)));
  }).catch((error: unknown) => {
    rmSync(directory, { recursive: true, force: true });
    throw error;
  });
  return {
    port,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
