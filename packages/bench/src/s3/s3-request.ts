import { PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { createBackupStats } from 'backupstats';
import { meterS3Client } from 'backupstats/s3';
import { Bench, type Task } from 'tinybench';
import type { BenchConfig } from '../config.js';
import { createOtelSetup } from '../harness/otel.js';
import { summarize } from '../harness/sample.js';
import { startBenchS3 } from './s3-server.js';

/** One kind of real request to s3rver on loopback, timed whole through a metered client. */
export interface S3RequestRow {
  readonly case: string;
  readonly bodyBytes: number;
  /** Median wall time of one request, milliseconds. */
  readonly msPerRequest: number;
  readonly samples: number;
  /** The middleware's cost per request as a share of this request's time, percent. */
  readonly middlewareSharePercent: number;
}

/** What the S3 request benchmark measured. */
export interface S3RequestResult {
  /** Both middlewares of `meterS3Client` around one UploadPart (set-up per command and one attempt), ns, median. */
  readonly middlewareNs: number;
  /** The same call without the middlewares (an awaited handler that answers at once), ns, median. */
  readonly bareNs: number;
  readonly middlewareRmePercent: number;
  /** What the AWS SDK itself does per PutObject of 1 KiB when the HTTP handler answers at once, µs, median. */
  readonly sdkUs: number;
  readonly rows: readonly S3RequestRow[];
}

/** The two middlewares meterS3Client adds, taken from a stand-in stack (the public API accepts any stack). */
type Handler = (args: object) => Promise<object>;
type Middleware = (next: Handler, context: Record<string, unknown>) => Handler;

function captureMiddlewares(stats: Parameters<typeof meterS3Client>[1]): { attempt: Middleware; object: Middleware } {
  const added = new Map<string, Middleware>();
  const stack = {
    add: (middleware: Middleware, options: { step: string }) => added.set(options.step, middleware),
    remove: () => true,
    identify: () => [],
  };
  meterS3Client({ middlewareStack: stack } as unknown as Parameters<typeof meterS3Client>[0], stats);
  const attempt = added.get('finalizeRequest');
  const object = added.get('initialize');
  if (attempt === undefined || object === undefined)
    throw new Error('s3-request: meterS3Client added no finalizeRequest / initialize middleware');
  return { attempt, object };
}

/**
 * The cost of metering S3 requests, next to what a request costs anyway:
 * 1. the two middlewares alone around one UploadPart attempt (tinybench, an inner loop per sample);
 * 2. the SDK's own work per request with an HTTP handler that answers at once (no network);
 * 3. real requests to s3rver on 127.0.0.1: PutObject of 1 KiB and of 5 MiB (one multipart part's size).
 */
export async function runS3Request(config: BenchConfig): Promise<S3RequestResult> {
  const otel = createOtelSetup();
  const stats = createBackupStats({ meterProvider: otel.provider });
  const { attempt, object } = captureMiddlewares(stats.backup);

  const part = Buffer.alloc(5 * 1024 * 1024);
  const args = {
    input: { Body: part },
    request: { method: 'PUT', headers: { 'content-length': String(part.length) }, body: part },
  };
  const answer = { output: { ETag: '"e"' }, response: { statusCode: 200, headers: { 'content-length': '0' } } };
  const handler: Handler = async () => answer;
  const context: Record<string, unknown> = { commandName: 'UploadPartCommand' };
  const inner = config.quick ? 100 : 2_000;
  let metered = 0;
  const bench = new Bench({
    time: config.quick ? 1 : 1500,
    iterations: config.quick ? 3 : 30,
    warmupTime: config.quick ? 1 : 300,
  });
  bench.add('bare', async () => {
    for (let i = 0; i < inner; i++) await handler(args);
  });
  bench.add('metered', async () => {
    for (let i = 0; i < inner; i++) {
      // As the SDK does per send: resolve the stack (each middleware gets its next handler), then one attempt.
      await object(attempt(handler, context), context)(args);
    }
    metered += inner;
  });
  await bench.run();
  stats.flush();
  // Every attempt reached OpenTelemetry: the loop was not optimized away.
  const sent = await otel.total('backup.operations');
  if (sent !== 2 * metered)
    throw new Error(
      `s3-request: exported ${sent} operations, expected ${2 * metered} (AWS:Request:Send and Destination:Write)`,
    );
  const nsOf = (task: Task | undefined): { ns: number; rme: number } => {
    const result = task?.result;
    if (result?.state !== 'completed') throw new Error(`s3-request: task ${task?.name} ended ${result?.state}`);
    return { ns: (result.latency.p50 * 1e6) / inner, rme: result.latency.rme };
  };
  const bare = nsOf(bench.tasks[0]);
  const withMiddleware = nsOf(bench.tasks[1]);
  const middlewareNs = Math.max(0, withMiddleware.ns - bare.ns);

  const sdkUs = await sdkOverheadUs(config);
  const s3 = await startBenchS3();
  const rows: S3RequestRow[] = [];
  try {
    const client = s3.client();
    meterS3Client(client, stats.backup);
    for (const [name, bytes, count] of [
      ['PutObject 1 KiB', 1024, config.quick ? 10 : 300],
      ['PutObject 5 MiB (one part)', 5 * 1024 * 1024, config.quick ? 2 : 40],
    ] as const) {
      const body = Buffer.alloc(bytes, 1);
      const ms: number[] = [];
      for (let i = 0; i < count; i++) {
        const start = performance.now();
        await client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: `request-${bytes}-${i % 8}`, Body: body }));
        ms.push(performance.now() - start);
      }
      const median = summarize(ms).median;
      rows.push({
        case: name,
        bodyBytes: bytes,
        msPerRequest: median,
        samples: count,
        middlewareSharePercent: (middlewareNs / (median * 1e6)) * 100,
      });
    }
    client.destroy();
  } finally {
    await s3.stop();
    await stats.shutdown();
    await otel.shutdown();
  }
  return { middlewareNs, bareNs: bare.ns, middlewareRmePercent: withMiddleware.rme, sdkUs, rows };
}

/** The SDK's own time per PutObject of 1 KiB with an HTTP handler that answers at once, µs (median of rounds). */
async function sdkOverheadUs(config: BenchConfig): Promise<number> {
  const { S3Client } = await import('@aws-sdk/client-s3');
  const handler = {
    handle: async () => ({
      response: { statusCode: 200, headers: { 'content-length': '0', etag: '"e"' }, body: new Uint8Array(0) },
    }),
  };
  const client: S3Client = new S3Client({
    endpoint: 'http://127.0.0.1:1',
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'bench', secretAccessKey: 'bench' },
    requestHandler: handler as never,
  });
  const body = Buffer.alloc(1024, 1);
  const perRequest: number[] = [];
  for (let round = 0; round < (config.quick ? 2 : 10); round++) {
    const n = config.quick ? 50 : 500;
    const start = performance.now();
    for (let i = 0; i < n; i++) await client.send(new PutObjectCommand({ Bucket: 'bench', Key: 'k', Body: body }));
    perRequest.push(((performance.now() - start) / n) * 1000);
  }
  client.destroy();
  return summarize(perRequest).median;
}
