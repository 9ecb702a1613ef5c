// @ts-nocheck
import type { S3RequestResult } from '../../s3/s3-request.js';
import { fixed, share, table } from '../format.js';

/** Section 7: what the S3 request middleware costs, next to the SDK's work and real requests. */
export function s3RequestSection(s3: S3RequestResult): string[] {
  return [
    '',
    '### 7. Cost of the S3 request middleware, next to the request',
    '',
    table(
      ['what', 'per request', 'middleware ÷ this'],
      [
        [
          '`meterS3Client` middlewares around one UploadPart attempt (both, set-up per command included)',
          `${fixed(s3.middlewareNs, 0)} ns (± ${fixed(s3.middlewareRmePercent, 1)} %)`,
          '–',
        ],
        ['the same awaited call without them (the floor)', `${fixed(s3.bareNs, 0)} ns`, '–'],
        [
          'AWS SDK work per PutObject of 1 KiB, HTTP handler answering at once',
          `${fixed(s3.sdkUs, 1)} µs`,
          share((s3.middlewareNs / (s3.sdkUs * 1000)) * 100),
        ],
        ...s3.rows.map((r) => [
          `${r.case} to s3rver on 127.0.0.1 (median of ${r.samples})`,
          `${fixed(r.msPerRequest, 2)} ms`,
          share(r.middlewareSharePercent),
        ]),
      ],
    ),
    '',
    'The middleware row is the difference between the two tinybench tasks (an inner loop per sample, medians). It records one ' +
      'AWS:Request:Send and one Destination:Write per call on a real SDK MeterProvider; the exported counts are checked.',
  ];
}
