// @ts-nocheck
import { mkdir } from 'node:fs/promises';
import { errorCode } from '../errors.js';

/**
 * Creates `path` (and missing parents) if it is not there. Tries the folder itself first: on a read-only file
 * system Node's recursive mkdir reports ENOENT, while a plain mkdir gives the true reason (EROFS, EACCES).
 */
export async function ensureFolder(path: string): Promise<void> {
  try {
    await mkdir(path);
  } catch (error) {
    const code = errorCode(error);
    if (code === 'EEXIST') return;
    if (code !== 'ENOENT') throw error;
    await mkdir(path, { recursive: true });
  }
}
