import { BlobServiceClient, StorageSharedKeyCredential } from '@azure/storage-blob';
import { createBackupStats } from 'backupstats';
import { meterBlobClient } from 'backupstats/azure';
import type { BenchConfig } from '../config.js';
import { createOtelSetup } from '../harness/otel.js';
import { summarize } from '../harness/sample.js';
import { startBenchAzurite } from './azurite.js';

/** One upload case: its median wall time over interleaved rounds. */
export interface AzureUploadRow {
  readonly case: 'unmetered' | 'metered';
  readonly bytes: number;
  /** Median wall time of one upload, ms. */
  readonly msPerUpload: number;
  readonly minMs: number;
  readonly maxMs: number;
  /** Median CPU time (user + system) of this process per upload, ms: the client's side, not Azurite's. */
  readonly cpuMsPerUpload: number;
  readonly rounds: number;
}

/** What the Azure upload benchmark measured. */
export interface AzureUploadResult {
  readonly rows: readonly AzureUploadRow[];
  /** Requests one metered upload made (blocks and the commit), as exported. */
  readonly requestsPerUpload: number;
}

/**
 * A 200 MiB `uploadData` (4 MiB blocks, four in flight) to Azurite on 127.0.0.1, through a client metered by
 * `meterBlobClient` and through one that is not, in interleaved rounds. Azurite runs in its own process on the same
 * machine, so both cases share the cores with it alike.
 */
export async function runAzureUpload(config: BenchConfig): Promise<AzureUploadResult> {
  const bytes = (config.quick ? 8 : 200) * 1024 * 1024;
  const rounds = config.quick ? 1 : 5;
  const warmUp = !config.quick;
  const data = Buffer.alloc(bytes);
  for (let i = 0; i < bytes; i += 4096) data[i] = i & 0xff;
  const azurite = await startBenchAzurite();
  const otel = createOtelSetup();
  const stats = createBackupStats({ meterProvider: otel.provider });
  const client = () => new BlobServiceClient(azurite.url, new StorageSharedKeyCredential(azurite.account, azurite.key));
  const plain = client().getContainerClient('bench');
  const metered = client();
  meterBlobClient(metered, stats.backup);
  const times = { unmetered: [] as number[], metered: [] as number[] };
  const cpu = { unmetered: [] as number[], metered: [] as number[] };
  try {
    await plain.create();
    const upload = async (which: 'unmetered' | 'metered', name: string): Promise<[number, number]> => {
      const container = which === 'metered' ? metered.getContainerClient('bench') : plain;
      const cpuStart = process.cpuUsage();
      const start = performance.now();
      await container
        .getBlockBlobClient(name)
        .uploadData(data, { blockSize: 4 * 1024 * 1024, maxSingleShotSize: 4 * 1024 * 1024, concurrency: 4 });
      const used = process.cpuUsage(cpuStart);
      return [performance.now() - start, (used.user + used.system) / 1000];
    };
    // Warm-up of both clients; a quick run's figures mean nothing, so it skips it.
    if (warmUp) {
      await upload('unmetered', 'warm-plain');
      await upload('metered', 'warm-metered');
    }
    for (let round = 0; round < rounds; round++) {
      // Alternate which goes first, so that neither always follows the other's leftovers (Azurite's disk writes).
      const order = round % 2 === 0 ? (['unmetered', 'metered'] as const) : (['metered', 'unmetered'] as const);
      for (const which of order) {
        const [wall, cpuMs] = await upload(which, `${which}-${round}`);
        times[which].push(wall);
        cpu[which].push(cpuMs);
      }
    }
    stats.flush();
  } finally {
    await azurite.stop();
  }
  const writes = await otel.total('backup.operations');
  await stats.shutdown();
  await otel.shutdown();
  // Per metered upload: a Destination:Write and an HTTP:Request:Send per block, a Destination:Close and a Send for
  // the commit.
  const blocks = Math.ceil(bytes / (4 * 1024 * 1024));
  const perUpload = 2 * blocks + 2;
  const meteredUploads = rounds + (warmUp ? 1 : 0);
  if (writes !== perUpload * meteredUploads)
    throw new Error(`azure-upload: exported ${writes} operations, expected ${perUpload * meteredUploads}`);
  return {
    rows: (['unmetered', 'metered'] as const).map((which) => {
      const summary = summarize(times[which]);
      return {
        case: which,
        bytes,
        msPerUpload: summary.median,
        minMs: summary.min,
        maxMs: summary.max,
        cpuMsPerUpload: summarize(cpu[which]).median,
        rounds,
      };
    }),
    requestsPerUpload: blocks + 1,
  };
}
