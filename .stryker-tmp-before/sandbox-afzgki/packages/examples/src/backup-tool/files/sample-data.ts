// @ts-nocheck
import { randomBytes } from 'node:crypto';
import { mkdir, open } from 'node:fs/promises';
import { join } from 'node:path';

/** What {@link generateSampleData} made. */
export interface SampleData {
  readonly files: number;
  readonly bytes: number;
}

/** How the content of a sample file compresses. */
type Kind = 'text' | 'random' | 'zeros' | 'mixed';
const KINDS: readonly Kind[] = ['text', 'text', 'random', 'mixed', 'zeros'];

/** A small seeded generator (mulberry32): the same size gives the same tree shape on every run. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Log-like lines: compresses several times over, as database text and logs do. */
function textBlock(random: () => number, size: number): Buffer {
  const words = [
    'backup',
    'restore',
    'shard',
    'tablet',
    'commit',
    'binlog',
    'row',
    'index',
    'page',
    'flush',
    'ok',
    'retry',
  ];
  const lines: string[] = [];
  let length = 0;
  for (let i = 0; length < size; i++) {
    const word = words[Math.floor(random() * words.length)] ?? 'row';
    const line = `2026-11-29T12:${String(i % 60).padStart(2, '0')}:00Z id=${Math.floor(random() * 1e6)} op=${word} bytes=${Math.floor(random() * 65536)}\n`;
    lines.push(line);
    length += line.length;
  }
  return Buffer.from(lines.join('')).subarray(0, size);
}

/** The share of the data in the first file, as a database's system tablespace holds much of it. */
const LARGE_SHARE = 0.1;

/**
 * Sizes summing exactly to `total`: the first file a tenth of it, the others spread over three orders of
 * magnitude (log-uniform).
 */
function fileSizes(random: () => number, files: number, total: number): number[] {
  const large = files > 1 ? Math.floor(total * LARGE_SHARE) : 0;
  const weights = Array.from({ length: files - 1 }, () => Math.exp(random() * Math.log(2000)));
  const sum = weights.reduce((a, b) => a + b, 0);
  const sizes = [large, ...weights.map((w) => Math.floor(((total - large) * w) / sum))];
  sizes[0] = (sizes[0] ?? 0) + total - sizes.reduce((a, b) => a + b, 0);
  return sizes;
}

/** The number of files the generator makes for `bytes` when not told: a few hundred for the default 200 MiB. */
export function defaultFileCount(bytes: number): number {
  return Math.max(8, Math.min(300, Math.round((bytes / (1024 * 1024)) * 1.5)));
}

/**
 * Writes a sample tree of `files` files holding `bytes` bytes in all under `root`, in nested folders, with
 * mixed sizes (one file a tenth of the data) and mixed compressibility (log text, random bytes, zeros, half
 * and half).
 */
export async function generateSampleData(
  root: string,
  bytes: number,
  files = defaultFileCount(bytes),
): Promise<SampleData> {
  const random = prng(0x5eed ^ bytes ^ (files << 8));
  const text = textBlock(random, 1024 * 1024);
  const sizes = fileSizes(random, files, bytes);
  for (let i = 0; i < sizes.length; i++) {
    const size = sizes[i] ?? 0;
    // The large file half random, so that it stays large once compressed (the demo uploads it to S3 in parts).
    const kind = i === 0 ? 'mixed' : (KINDS[i % KINDS.length] ?? 'text');
    const folder = join(root, `db${i % 4}`, `table${i % 7}`);
    await mkdir(folder, { recursive: true });
    const file = await open(join(folder, `part-${String(i).padStart(4, '0')}.${kind === 'text' ? 'log' : 'dat'}`), 'w');
    try {
      for (let written = 0; written < size; ) {
        const n = Math.min(1024 * 1024, size - written);
        await file.write(chunk(kind, n, text, random));
        written += n;
      }
    } finally {
      await file.close();
    }
  }
  return { files, bytes };
}

function chunk(kind: Kind, size: number, text: Buffer, random: () => number): Buffer {
  switch (kind) {
    case 'random':
      return randomBytes(size);
    case 'zeros':
      return Buffer.alloc(size);
    case 'mixed': {
      const half = Math.floor(size / 2);
      return Buffer.concat([randomBytes(half), textSlice(text, size - half, random)]);
    }
    default:
      return textSlice(text, size, random);
  }
}

function textSlice(text: Buffer, size: number, random: () => number): Buffer {
  const start = Math.floor(random() * (text.length - size));
  return text.subarray(Math.max(0, start), Math.max(0, start) + size);
}
