// startBackupStats gives every reader it builds the latency histograms in the aggregation its exporter carries:
// explicit buckets to Prometheus and, by default, to OTLP; base-2 exponential to OTLP when the standard variable
// asks; both at once with two readers. Through the real exporters and the OTLP wire format, decoded.
import { startBackupStats } from 'backupstats/setup';
import { describe, expect } from 'vitest';
import { it } from '../support/fixtures.js';
import { freePort } from '../support/free-port.js';
import { latestHistogram } from '../support/received-histograms.js';

/** The lines of one Prometheus histogram family for one operation: le → cumulative count, and _sum / _count. */
function scrapedHistogram(
  text: string,
  name: string,
  operation: string,
): { buckets: Map<string, number>; count: number | undefined; sum: number | undefined } {
  const buckets = new Map<string, number>();
  let count: number | undefined;
  let sum: number | undefined;
  for (const line of text.split('\n')) {
    if (!line.includes(`operation="${operation}"`)) continue;
    const value = Number(line.split(' ').at(-1));
    if (line.startsWith(`${name}_bucket{`)) buckets.set(/le="([^"]+)"/.exec(line)?.[1] ?? '', value);
    else if (line.startsWith(`${name}_count{`)) count = value;
    else if (line.startsWith(`${name}_sum{`)) sum = value;
  }
  return { buckets, count, sum };
}

const DURATIONS_MS = [0.02, 0.3, 4, 4, 60, 900];

describe('histograms wired by startBackupStats', () => {
  it('Prometheus and OTLP at once: explicit buckets on the scrape, exponential over OTLP when the variable asks', async ({
    startReceiver,
    startFromEnv,
  }) => {
    const receiver = await startReceiver();
    const port = await freePort();
    const stats = await startFromEnv({
      OTEL_METRICS_EXPORTER: 'prometheus,otlp',
      OTEL_EXPORTER_PROMETHEUS_HOST: '127.0.0.1',
      OTEL_EXPORTER_PROMETHEUS_PORT: String(port),
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_METRICS_DEFAULT_HISTOGRAM_AGGREGATION: 'base2_exponential_bucket_histogram',
    });
    const op = stats.backup.scope({ operation: 'Source:Read' });
    for (const ms of DURATIONS_MS) op.timedIncrementBytes(10, ms);

    const scraped = scrapedHistogram(
      await (await fetch(`http://127.0.0.1:${port}/metrics`)).text(),
      'backup_operation_duration',
      'Source:Read',
    );
    expect(scraped.count).toBe(6);
    expect(scraped.sum).toBeCloseTo(DURATIONS_MS.reduce((a, b) => a + b, 0) / 1000, 9);
    // Cumulative counts at a few le: exact, from the durations' own buckets.
    expect(scraped.buckets.get('0.00005')).toBe(1);
    expect(scraped.buckets.get('0.005')).toBe(4);
    expect(scraped.buckets.get('1')).toBe(6);
    expect(scraped.buckets.get('+Inf')).toBe(6);

    await stats.forceFlush();
    const point = latestHistogram(receiver, 'backup.operation.duration', 'Source:Read');
    expect(point).toMatchObject({ kind: 'exponential', count: 6, scale: 3 });
    expect(point?.bucketCounts.reduce((a, b) => a + b, 0)).toBe(6);
  });

  it('OTLP alone without the variable: explicit buckets (the specification default)', async ({
    startReceiver,
    startFromEnv,
  }) => {
    const receiver = await startReceiver();
    const stats = await startFromEnv({ OTEL_METRICS_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url });
    stats.restore.scope({ operation: 'Destination:Write' }).timedIncrement(3);
    await stats.forceFlush();
    expect(latestHistogram(receiver, 'restore.operation.duration', 'Destination:Write')).toMatchObject({
      kind: 'explicit',
      count: 1,
      bounds: [
        1e-5, 2.5e-5, 5e-5, 1e-4, 2.5e-4, 5e-4, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
        25, 50, 100,
      ],
    });
  });

  it('BACKUPSTATS_HISTOGRAM_BOUNDARIES sets the buckets; BACKUPSTATS_HISTOGRAMS=false keeps none', async ({
    startReceiver,
    startFromEnv,
  }) => {
    const receiver = await startReceiver();
    const base = { OTEL_METRICS_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url };
    const custom = await startFromEnv({ ...base, BACKUPSTATS_HISTOGRAM_BOUNDARIES: '0.001, 0.01' });
    custom.backup.scope({ operation: 'custom' }).timedIncrement(5);
    await custom.forceFlush();
    expect(latestHistogram(receiver, 'backup.operation.duration', 'custom')).toMatchObject({
      bounds: [0.001, 0.01],
      bucketCounts: [0, 1, 0],
    });
    const off = await startFromEnv({ ...base, BACKUPSTATS_HISTOGRAMS: 'false' });
    off.backup.scope({ operation: 'off' }).timedIncrement(5);
    await off.forceFlush();
    expect(latestHistogram(receiver, 'backup.operation.duration', 'off')).toBeUndefined();
  });

  it.each([
    [
      'BACKUPSTATS_HISTOGRAM_BOUNDARIES',
      '0.1,abc',
      '"0.1,abc" (boundary 2 is NaN, not a finite number above 0)',
      'increasing order',
    ],
    [
      'BACKUPSTATS_HISTOGRAM_BOUNDARIES',
      '1,0.5',
      '"1,0.5" (boundary 2 is 0.5, below 1: not increasing)',
      'increasing order',
    ],
    ['BACKUPSTATS_HISTOGRAM_BOUNDARIES', '1,1', '"1,1" (boundary 2 repeats 1)', 'increasing order'],
    // Worded as every boolean variable is.
    ['BACKUPSTATS_HISTOGRAMS', 'maybe', '"maybe"', '"true" or "false" (any case)'],
    [
      'OTEL_EXPORTER_OTLP_METRICS_DEFAULT_HISTOGRAM_AGGREGATION',
      'summary',
      '"summary"',
      '"explicit_bucket_histogram" or "base2_exponential_bucket_histogram"',
    ],
  ])(
    '%s=%s is refused, naming the variable, the value, the rule broken and what is accepted',
    async (variable, value, shown, accepted) => {
      const literal = (text: string) => text.replace(/[().[\]]/g, '\\$&');
      await expect(startBackupStats({ env: { OTEL_METRICS_EXPORTER: 'otlp', [variable]: value } })).rejects.toThrow(
        new RegExp(`^backupstats: ${variable} is ${literal(shown)}; accepted: .*${literal(accepted)}`),
      );
    },
  );

  it('a list of 5,000 boundaries is shown cut, with its length, not echoed whole', async () => {
    const value = Array.from({ length: 5000 }, (_, i) => (i + 1) / 1000).join(',');
    const refused = startBackupStats({
      env: { OTEL_METRICS_EXPORTER: 'none', BACKUPSTATS_HISTOGRAM_BOUNDARIES: value },
    });
    await expect(refused).rejects.toThrow(
      `backupstats: BACKUPSTATS_HISTOGRAM_BOUNDARIES is ${JSON.stringify(value).slice(0, 120)}… (${value.length + 2} characters) (5000 boundaries, more than 64); accepted: 1 to 64`,
    );
    expect(((await refused.catch((error: Error) => error)) as Error).message.length).toBeLessThan(400);
  });
});
