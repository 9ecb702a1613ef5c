// @ts-nocheck
import type { Transform } from 'node:stream';
import { constants, createBrotliCompress, createBrotliDecompress, createGunzip, createGzip } from 'node:zlib';
import type { Compression } from './manifest.js';

/** zlib's output chunk: 64 KiB instead of its 16 KiB default, so that every stage handles a quarter of the chunks. */
const CHUNK = 64 * 1024;

/** The extension of a stored object. */
export const EXTENSIONS: Readonly<Record<Compression, string>> = { gzip: 'gz', brotli: 'br' };

/**
 * A compressor. Brotli runs at quality 5 unless told: its default, 11, is about fifty times slower, too slow
 * for a backup job's throughput.
 */
export function createCompressor(compression: Compression, level: number | undefined): Transform {
  if (compression === 'brotli') {
    return createBrotliCompress({ chunkSize: CHUNK, params: { [constants.BROTLI_PARAM_QUALITY]: level ?? 5 } });
  }
  return createGzip({ chunkSize: CHUNK, level: level ?? constants.Z_DEFAULT_COMPRESSION });
}

/** The matching decompressor. */
export function createDecompressor(compression: Compression): Transform {
  return compression === 'brotli' ? createBrotliDecompress({ chunkSize: CHUNK }) : createGunzip({ chunkSize: CHUNK });
}

/** The levels each compression accepts, for the command line check. */
export const LEVELS: Readonly<Record<Compression, readonly [number, number]>> = { gzip: [1, 9], brotli: [0, 11] };
