// What a worker link's places cost the main thread's memory, measured by scripts/link-memory.mjs in a child process
// (a fresh heap, gc exposed): a place no worker took costs address space, not resident memory (a buffer per place
// would cost a page per untaken place, 5.4 MB for ten links of 128 places); a link the system cannot
// give memory to is refused with an error that names the options, under a real limit of the child's address space
// (`ulimit -v`).
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { cleanEnv } from '@backupstats/testkit/node-process';
import { describe, expect, it } from 'vitest';

const script = fileURLToPath(new URL('../../scripts/link-memory.mjs', import.meta.url));
const run = promisify(execFile);

/** scripts/link-memory.mjs's JSON line, from a child whose address space is limited to `limitKiB` when given. */
async function measure(args: string[], limitKiB?: number): Promise<Record<string, unknown>> {
  const command = `${limitKiB === undefined ? '' : `ulimit -v ${limitKiB}; `}exec "$0" --expose-gc "$@"`;
  const { stdout } = await run('/bin/sh', ['-c', command, process.execPath, script, '--json', ...args], {
    env: cleanEnv(),
  });
  return JSON.parse(stdout.trim()) as Record<string, unknown>;
}

describe('the memory of a worker link', () => {
  it('twenty links of 128 places that no worker took, read by ten flushes: under 2 MiB of resident memory', async () => {
    const measured = await measure(['--links', '20', '128']);
    // 2,560 places of 2.7 MB each are 6.8 GB of address space; a page each would be 10 MiB.
    expect(measured.arrayBuffers).toBeGreaterThan(3e9);
    expect(measured.rss).toBeLessThan(2 * 1024 * 1024);
  });

  it('memory the system refuses: a TypeError naming the options, the bytes and what is accepted', async () => {
    // 1024 places of 4096 scopes in four families with histograms are 43 GB; the child may have 8 GB of address space.
    const { error } = await measure(['--links', '1', '--max-scopes', '4096', '1024'], 8_000_000);
    expect(error).toEqual({
      name: 'TypeError',
      code: 'BACKUPSTATS_INVALID_OPTION',
      message:
        'backupstats: workerLink options is { workers: 1024, maxScopes: 4096 } (43553710080 bytes of shared memory, ' +
        'which the system refused: Array buffer allocation failed); accepted: fewer workers or a smaller maxScopes: a ' +
        'place holds maxScopes slots per family, of 56 bytes without histograms or (268 + explicit boundaries) × 8 ' +
        'bytes with them, and 256 bytes of labels per slot',
    });
  });
});
