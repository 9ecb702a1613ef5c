import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

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
  const directory = mkdtempSync(join(tmpdir(), 'backupstats-bench-azurite-'));
  const main = join(
    dirname(createRequire(import.meta.url).resolve('azurite/package.json')),
    'dist',
    'src',
    'blob',
    'main.js',
  );
  const child = spawn(
    process.execPath,
    [
      main,
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
    child.once('exit', (code) => reject(new Error(`azurite-blob exited (${code}) before listening:\n${output}`)));
  });
  return {
    url: `http://127.0.0.1:${port}/devstoreaccount1`,
    account: 'devstoreaccount1',
    key: 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==',
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
