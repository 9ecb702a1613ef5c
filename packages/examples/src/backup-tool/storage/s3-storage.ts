import type { Readable } from 'node:stream';
import { Transform } from 'node:stream';
import { text } from 'node:stream/consumers';
import { DeleteObjectsCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { Stats } from 'backupstats';
import { meterS3Client } from 'backupstats/s3';
import { MANIFEST_NAME } from '../engine/manifest.js';
import { ExitCode, ToolError } from '../errors.js';
import { createS3Client } from './s3-client.js';
import type { S3Connection } from './s3-connection.js';
import { s3ReadError, s3WriteError } from './s3-errors.js';
import { type S3Location, s3Url } from './s3-location.js';
import type { BackupTarget, ObjectWriter, RestoreSource } from './storage.js';

/** S3's smallest part: objects larger than one part go up as multipart uploads. */
const PART_SIZE = 5 * 1024 * 1024;
/** Parts of one object in flight at once (lib-storage's queue). */
const PARTS_IN_FLIGHT = 4;

/**
 * Backs up into an S3 bucket under a prefix, one object per file through lib-storage's `Upload` (multipart
 * above 5 MiB, four parts in flight). The client is metered by `meterS3Client`: every request attempt is an
 * `AWS:Request:Send` under BackupStorage/S3, and the uploads' parts are its Destination operations.
 */
export function s3BackupTarget(location: S3Location, connection: S3Connection, backup: Stats): BackupTarget {
  const client = createS3Client(connection);
  const unmeter = meterS3Client(client, backup);
  const url = (key?: string): string => s3Url(location, key);
  return {
    location: url(),
    async prepare() {
      try {
        const listed = await client.send(
          new ListObjectsV2Command({ Bucket: location.bucket, Prefix: location.prefix, MaxKeys: 1 }),
        );
        if ((listed.KeyCount ?? 0) > 0) {
          throw new ToolError(
            `${url()} is not empty: give a bucket and prefix that hold no objects yet`,
            ExitCode.Destination,
          );
        }
      } catch (error) {
        throw s3WriteError(error, url(), connection);
      }
    },
    async create(object): Promise<ObjectWriter> {
      let bytes = 0;
      // Counts the stored size on the way in; lib-storage reads the object's data from it.
      const stream = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          bytes += chunk.length;
          callback(null, chunk);
        },
      });
      const upload = new Upload({
        client,
        params: { Bucket: location.bucket, Key: `${location.prefix}${object}`, Body: stream },
        partSize: PART_SIZE,
        queueSize: PARTS_IN_FLIGHT,
      });
      const done = upload.done();
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
          await upload.abort().catch(() => {});
          await done.catch(() => {});
        },
      };
    },
    async writeManifest(manifest) {
      try {
        await client.send(
          new PutObjectCommand({ Bucket: location.bucket, Key: `${location.prefix}${MANIFEST_NAME}`, Body: manifest }),
        );
      } catch (error) {
        throw s3WriteError(error, url(MANIFEST_NAME), connection);
      }
    },
    writeError: (object, error) => s3WriteError(error, url(object), connection),
    async close() {
      unmeter();
      client.destroy();
    },
  };
}

/** Restores from an S3 bucket and prefix; `GetObject` bodies are Source:Open/Read/Close under BackupStorage/S3. */
export function s3RestoreSource(location: S3Location, connection: S3Connection, restore: Stats): RestoreSource {
  const client = createS3Client(connection);
  const unmeter = meterS3Client(client, restore);
  const url = (key?: string): string => s3Url(location, key);
  const get = async (object: string): Promise<Readable> => {
    const got = await client.send(
      new GetObjectCommand({ Bucket: location.bucket, Key: `${location.prefix}${object}` }),
    );
    return got.Body as Readable;
  };
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
    readError: (object, error) => s3ReadError(error, url(object ?? MANIFEST_NAME), connection),
    async close() {
      unmeter();
      client.destroy();
    },
  };
}

/** Deletes every object under the location (a finished cycle of `--loop`). Not metered: it is neither backup nor restore. */
/** The bytes of every object under the location's prefix. */
export async function sizeOfS3Prefix(location: S3Location, connection: S3Connection): Promise<number> {
  const client = createS3Client(connection);
  try {
    let bytes = 0;
    let token: string | undefined;
    do {
      const listed = await client.send(
        new ListObjectsV2Command({ Bucket: location.bucket, Prefix: location.prefix, ContinuationToken: token }),
      );
      for (const object of listed.Contents ?? []) bytes += object.Size ?? 0;
      token = listed.NextContinuationToken;
    } while (token !== undefined);
    return bytes;
  } finally {
    client.destroy();
  }
}

export async function removeS3Prefix(location: S3Location, connection: S3Connection): Promise<void> {
  const client = createS3Client(connection);
  try {
    for (;;) {
      const listed = await client.send(new ListObjectsV2Command({ Bucket: location.bucket, Prefix: location.prefix }));
      const keys = (listed.Contents ?? []).map((o) => ({ Key: o.Key }));
      if (keys.length === 0) return;
      await client.send(new DeleteObjectsCommand({ Bucket: location.bucket, Delete: { Objects: keys } }));
    }
  } finally {
    client.destroy();
  }
}
