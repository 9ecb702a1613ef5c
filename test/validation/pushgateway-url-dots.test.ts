// A Pushgateway URL whose path has "." or ".." segments is refused: URL parsing resolves them, so
// BACKUPSTATS_PUSHGATEWAY_URL=http://pg:9091/a/../../admin would quietly become the prefix /admin, and the pushes
// would go to /admin/metrics/job/… . Dots inside a segment (a host, "v1.2") are still accepted.
import { createPushgatewayExporter } from 'backupstats/pushgateway';
import { describe, expect } from 'vitest';
import { it } from '../support/fixtures.js';
import { setUpError } from '../support/set-up-error.js';

const REFUSED = [
  'http://pg:9091/a/../../admin',
  'http://pg:9091/./metrics',
  'http://pg:9091/a/..',
  'http://pg:9091/a/%2E%2e/b',
];

describe('a Pushgateway URL with dot segments', () => {
  it.each(REFUSED)('%s is refused at set-up and by createPushgatewayExporter, naming the rule', async (url) => {
    const error = await setUpError({ OTEL_METRICS_EXPORTER: 'pushgateway', BACKUPSTATS_PUSHGATEWAY_URL: url });
    expect(error.message).toBe(
      `backupstats: BACKUPSTATS_PUSHGATEWAY_URL is ${JSON.stringify(url)}; accepted: an http:// or https:// URL without query or fragment, and without "." or ".." in its path, e.g. "http://pushgateway:9091" (a path is kept as a prefix; user:password@ becomes basic authentication)`,
    );
    expect(() => createPushgatewayExporter({ url, job: 'j' })).toThrow(
      /option url is .*without "\." or "\.\." in its path/,
    );
  });

  it('dots within a segment are accepted', async () => {
    for (const url of ['http://pg.example:9091/v1.2/pushgateway', 'http://10.0.0.1:9091/a.b/']) {
      await createPushgatewayExporter({ url, job: 'j' }).shutdown();
    }
  });
});
