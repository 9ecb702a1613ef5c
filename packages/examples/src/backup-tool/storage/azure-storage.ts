import type { Readable } from 'node:stream';
import { Transform } from 'node:stream';
import { text } from 'node:stream/consumers';
import { BlobServiceClient } from '@azure/storage-blob';
import type { Stats } from 'backupstats';
import { meterBlobClient } from 'backupstats/azure';
import { MANIFEST_NAME } from '../engine/manifest.js';
import { corruptedError, ExitCode, errorCode, ToolError } from '../errors.js';
import type { BackupTarget, ObjectWriter, RestoreSource } from './storage.js';

/** A container and a blob name prefix (empty, or ending in `/`), with the connection string to reach it. */
export interface AzureLocation {
  readonly connectionString: string;
  readonly container: string;
  readonly prefix: string;
}

/** Blocks of 4 MiB, four in flight: each staged block is a Destination:Write. */
const BLOCK_SIZE = 4 * 1024 * 1024;
const BLOCKS_IN_FLIGHT = 4;

/** The `azure://container/prefix` name of `name` under the location, for messages. */
export function azureUrl(location: AzureLocation, name = ''): string {
  return `azure://${location.container}/${location.prefix}${name}`;
}

/** The location one level down, e.g. a cycle of `--loop`. */
export function azureBelow(location: AzureLocation, folder: string): AzureLocation {
  return { ...location, prefix: `${location.prefix}${folder}/` };
}

function describe(error: unknown): string {
  const e = error as { code?: string; message?: string } | null;
  return `${e?.code ?? 'Error'}: ${e?.message ?? String(error)}`.replace(/\s+/g, ' ').trim();
}

/** One line and an exit code for an error met while talking to Azure; `fallback` for what is not listed. */
function azureError(error: unknown, url: string, fallback: (error: unknown) => ToolError): ToolError {
  if (error instanceof ToolError) return error;
  const e = (error ?? {}) as { statusCode?: number; code?: string };
  if (e.statusCode === undefined && errorCode(error) !== undefined) {
    return new ToolError(
      `cannot reach Azure Blob Storage for ${url} (${describe(error)})`,
      ExitCode.StorageUnreachable,
      {
        cause: error,
      },
    );
  }
  if (e.code === 'ContainerNotFound') {
    return new ToolError(
      `cannot use ${url}: the container does not exist (ContainerNotFound)`,
      ExitCode.BucketMissing,
      {
        cause: error,
      },
    );
  }
  if (e.statusCode === 403) {
    return new ToolError(`access to ${url} was denied (${describe(error)})`, ExitCode.AccessDenied, { cause: error });
  }
  return fallback(error);
}

/**
 * Backs up into an Azure Blob Storage container under a prefix, one block blob per file through `uploadStream`. The
 * service client is metered by `meterBlobClient`: every request attempt is an `HTTP:Request:Send` under
 * BackupStorage/Azure, each staged block a Destination:Write and each commit a Destination:Close.
 */
export function azureBackupTarget(location: AzureLocation, backup: Stats): BackupTarget {
  const service = BlobServiceClient.fromConnectionString(location.connectionString);
  const unmeter = meterBlobClient(service, backup);
  const container = service.getContainerClient(location.container);
  const url = (name?: string): string => azureUrl(location, name);
  const writeError = (error: unknown, at: string): ToolError =>
    azureError(
      error,
      at,
      (other) => new ToolError(`cannot write ${at}: ${describe(other)}`, ExitCode.Destination, { cause: other }),
    );
  return {
    location: url(),
    async prepare() {
      try {
        const first = await container.listBlobsFlat({ prefix: location.prefix }).next();
        if (first.done !== true) {
          throw new ToolError(
            `${url()} is not empty: give a container and prefix that hold no blobs yet`,
            ExitCode.Destination,
          );
        }
      } catch (error) {
        throw writeError(error, url());
      }
    },
    async create(object): Promise<ObjectWriter> {
      let bytes = 0;
      // Counts the stored size on the way in; uploadStream reads the blob's data from it.
      const stream = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          bytes += chunk.length;
          callback(null, chunk);
        },
      });
      const done = container
        .getBlockBlobClient(`${location.prefix}${object}`)
        .uploadStream(stream, BLOCK_SIZE, BLOCKS_IN_FLIGHT);
      // A failed upload stops reading: fail the stream too, so that the pipeline writing into it ends.
      done.catch((error: unknown) => stream.destroy(error as Error));
      return {
        stream,
        async finish() {
          await done;
          return bytes;
        },
        async abort() {
          stream.destroy();
          await done.catch(() => {});
        },
      };
    },
    async writeManifest(manifest) {
      try {
        await container
          .getBlockBlobClient(`${location.prefix}${MANIFEST_NAME}`)
          .upload(manifest, Buffer.byteLength(manifest));
      } catch (error) {
        throw writeError(error, url(MANIFEST_NAME));
      }
    },
    writeError: (object, error) => writeError(error, url(object)),
    async close() {
      unmeter();
    },
  };
}

/** Restores from an Azure container and prefix; downloads are Source:Open/Read/Close under BackupStorage/Azure. */
export function azureRestoreSource(location: AzureLocation, restore: Stats): RestoreSource {
  const service = BlobServiceClient.fromConnectionString(location.connectionString);
  const unmeter = meterBlobClient(service, restore);
  const container = service.getContainerClient(location.container);
  const url = (name?: string): string => azureUrl(location, name);
  const get = async (object: string): Promise<Readable> =>
    (await container.getBlobClient(`${location.prefix}${object}`).download()).readableStreamBody as Readable;
  return {
    location: url(),
    manifestName: url(MANIFEST_NAME),
    readManifest: async () => text(await get(MANIFEST_NAME)),
    async open(object) {
      const stream = await get(object);
      return {
        stream,
        async close() {
          stream.destroy();
        },
      };
    },
    nameOf: (object) => url(object),
    readError: (object, error) =>
      azureError(error, url(object ?? MANIFEST_NAME), (other) => {
        if ((other as { code?: string } | null)?.code === 'BlobNotFound') {
          return new ToolError(
            `cannot restore from ${url(object ?? MANIFEST_NAME)}: does not exist (BlobNotFound)`,
            ExitCode.Corrupted,
            {
              cause: other,
            },
          );
        }
        return corruptedError(url(object ?? MANIFEST_NAME), other);
      }),
    async close() {
      unmeter();
    },
  };
}

/** The bytes of every blob under the location's prefix. */
export async function sizeOfAzurePrefix(location: AzureLocation): Promise<number> {
  const container = BlobServiceClient.fromConnectionString(location.connectionString).getContainerClient(
    location.container,
  );
  let bytes = 0;
  for await (const blob of container.listBlobsFlat({ prefix: location.prefix }))
    bytes += blob.properties.contentLength ?? 0;
  return bytes;
}

/** Deletes every blob under the location (a finished cycle of `--loop`). Not metered: neither backup nor restore. */
export async function removeAzurePrefix(location: AzureLocation): Promise<void> {
  const container = BlobServiceClient.fromConnectionString(location.connectionString).getContainerClient(
    location.container,
  );
  for await (const blob of container.listBlobsFlat({ prefix: location.prefix })) {
    await container.deleteBlob(blob.name);
  }
}
