// @ts-nocheck
import { createServer } from 'node:net';

/**
 * Returns a TCP port that was free on 127.0.0.1 a moment ago: the OS picks it for a listener on port 0,
 * which is closed again so that the caller (often another process) can bind it.
 */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('the OS gave no TCP port');
  return address.port;
}
