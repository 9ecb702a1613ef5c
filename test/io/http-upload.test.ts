// A defect found in use: `meterWritable` on an HTTP upload recorded nothing, because http.ClientRequest and
// ServerResponse are typed as Writable but never call _write / _writev.
import { createServer, IncomingMessage, request, ServerResponse } from 'node:http';
import { PassThrough, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { meterTransform, meterWritable } from 'backupstats';
import { createRecordingStats } from 'backupstats/testing';
import { describe, expect, it, onTestFinished } from 'vitest';

/** A server on 127.0.0.1 that counts the body bytes of each request; stopped when the test ends. */
async function uploadServer(): Promise<{ port: number; received: () => number }> {
  let received = 0;
  const server = createServer((req, res) => {
    req.on('data', (chunk: Buffer) => {
      received += chunk.length;
    });
    req.on('end', () => res.end('ok'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const { port } = server.address() as { port: number };
  return { port, received: () => received };
}

const body = (): Readable => Readable.from([Buffer.alloc(65_536), Buffer.alloc(65_536), Buffer.alloc(1_000)]);

describe('meterWritable on a stream that never calls _write / _writev', () => {
  it('throws a TypeError at the call for http.ClientRequest, saying what to use instead, and leaves the request usable', async () => {
    const { port, received } = await uploadServer();
    const stats = createRecordingStats();
    const req = request({ host: '127.0.0.1', port, method: 'PUT', path: '/backup.gz' });
    const answered = new Promise<void>((resolve, reject) => {
      req.on('response', (res) => res.resume().on('end', resolve));
      req.on('error', reject);
    });
    onTestFinished(() => {
      req.destroy();
    });

    expect(() => meterWritable(req, stats)).toThrow(TypeError);
    expect(() => meterWritable(req, stats)).toThrow(/http\.ClientRequest.*never calls? _write.*meterTransform/s);

    // What the message advises: meter a PassThrough in front of the request.
    await Promise.all([pipeline(body(), meterTransform(new PassThrough(), stats), req), answered]);
    expect(received()).toBe(132_072);
    expect(stats.totals()).toMatchObject({ count: 3, bytes: 132_072 });
  });

  it('throws the same TypeError for a ServerResponse', () => {
    const res = new ServerResponse(new IncomingMessage(null as never));
    expect(() => meterWritable(res, createRecordingStats())).toThrow(/ServerResponse/);
  });

  it('still meters real Writables in place (the check does not reject them)', async () => {
    const stats = createRecordingStats();
    const sink = new PassThrough().resume();
    await pipeline(body(), meterWritable(sink, stats));
    expect(stats.totals()).toMatchObject({ count: 3, bytes: 132_072 });
  });
});
