// The Pushgateway exporter's settings, refused at set-up (BACKUPSTATS_PUSHGATEWAY_*) or at the call
// (createPushgatewayExporter) with the usual message: what was set, its value (never a secret: a URL's
// credentials and the headers are hidden) and what is accepted.

import { createPushgatewayExporter, type PushgatewayExporterOptions } from 'backupstats/pushgateway';
import { startBackupStats } from 'backupstats/setup';
import { describe, expect } from 'vitest';
import { expectDocumentedCode, thrownBy } from '../support/error-codes.js';
import { it } from '../support/fixtures.js';
import { setUpError } from '../support/set-up-error.js';

const pushgateway = { OTEL_METRICS_EXPORTER: 'pushgateway' };

/** Every message of the error and its causes, with their stacks. */
function everyText(error: unknown): string {
  let text = '';
  for (let e: unknown = error; e !== undefined; e = (e as Error).cause)
    text += `${(e as Error).message}\n${(e as Error).stack}\n`;
  return text;
}

describe('BACKUPSTATS_PUSHGATEWAY_* at set-up', () => {
  it.each([
    [
      'BACKUPSTATS_PUSHGATEWAY_URL',
      'pushgateway:9091',
      '"pushgateway:9091"',
      'an http:// or https:// URL without query or fragment',
    ],
    ['BACKUPSTATS_PUSHGATEWAY_URL', 'ftp://pushgateway:9091', '"ftp://pushgateway:9091"', 'an http:// or https:// URL'],
    [
      'BACKUPSTATS_PUSHGATEWAY_URL',
      'http://pushgateway:9091/#top',
      '"http://pushgateway:9091/#top"',
      'without query or fragment',
    ],
    ['BACKUPSTATS_PUSHGATEWAY_URL', 'http://', '"http://"', 'an http:// or https:// URL'],
    [
      'BACKUPSTATS_PUSHGATEWAY_GROUPING',
      'job=nightly',
      '"job=nightly"',
      'not job or instance (set through OTEL_SERVICE_NAME and service.instance.id)',
    ],
    ['BACKUPSTATS_PUSHGATEWAY_GROUPING', 'region=eu,instance=db-1', '"region=eu,instance=db-1"', 'not job or instance'],
    ['BACKUPSTATS_PUSHGATEWAY_GROUPING', '__name__=x', '"__name__=x"', 'not starting with "__"'],
    ['BACKUPSTATS_PUSHGATEWAY_GROUPING', 'data-center=a', '"data-center=a"', '[a-zA-Z_][a-zA-Z0-9_]*'],
    ['BACKUPSTATS_PUSHGATEWAY_GROUPING', '1tier=db', '"1tier=db"', '[a-zA-Z_][a-zA-Z0-9_]*'],
    ['BACKUPSTATS_PUSHGATEWAY_GROUPING', 'region', '"region"', 'comma-separated key=value pairs'],
    ['BACKUPSTATS_PUSHGATEWAY_GROUPING', 'region=', '"region="', 'comma-separated key=value pairs'],
    ['OTEL_METRICS_EXPORTER', 'pushgateway,none', '"pushgateway,none"', '"pushgateway"'],
  ])('%s=%s: named, shown and what is accepted', async (variable, value, shown, accepted) => {
    const error = await setUpError({ ...pushgateway, [variable]: value });
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toMatch(new RegExp(`^backupstats: ${variable} is `));
    expect(error.message).toContain(`${variable} is ${shown}`);
    expect(error.message).toContain('accepted: ');
    expect(error.message).toContain(accepted);
  });

  it.for<[string, Record<string, string>]>([
    [
      'a URL with credentials and a query',
      { BACKUPSTATS_PUSHGATEWAY_URL: 'http://s3cr3t-user:s3cr3t-pw@pg:9091/?s3cr3t=1' },
    ],
    ['a URL with credentials, not http', { BACKUPSTATS_PUSHGATEWAY_URL: 'ftp://s3cr3t-user:s3cr3t-pw@pg:9091' }],
    ['a header value with a newline', { BACKUPSTATS_PUSHGATEWAY_HEADERS: 'authorization=Bearer%20s3cr3t%0Ax' }],
    ['a header name with a space', { BACKUPSTATS_PUSHGATEWAY_HEADERS: 'x s3cr3t=y' }],
  ])('%s: refused, and no secret in any message', async ([, env], { diagnostics }) => {
    const error = await setUpError({ ...pushgateway, ...env });
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toMatch(/^backupstats: BACKUPSTATS_PUSHGATEWAY_(URL|HEADERS)/);
    expect(error.message).toContain('<redacted>');
    expect(everyText(error)).not.toContain('s3cr3t');
    expect(diagnostics.messages.join('\n')).not.toContain('s3cr3t');
  });

  it('credentials in the URL and an authorization header: both named, what is wrong said, neither shown', async ({
    diagnostics,
  }) => {
    const error = await setUpError({
      ...pushgateway,
      BACKUPSTATS_PUSHGATEWAY_URL: 'http://s3cr3t-user:s3cr3t-pw@pg:9091',
      BACKUPSTATS_PUSHGATEWAY_HEADERS: 'Authorization=Bearer%20s3cr3t',
    });
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toBe(
      'backupstats: BACKUPSTATS_PUSHGATEWAY_URL has credentials (user:password@) and BACKUPSTATS_PUSHGATEWAY_HEADERS has an authorization header: both say how to authenticate (neither is shown, as they may hold secrets); accepted: one of the two, not both',
    );
    expect(everyText(error)).not.toContain('s3cr3t');
    expect(diagnostics.messages.join('\n')).not.toContain('s3cr3t');
  });

  it('unset, the Pushgateway is http://localhost:9091: the final push that finds nobody there names it', async ({
    diagnostics,
  }) => {
    // Nothing of the tests listens on 9091; the default is seen in the message of the push that fails.
    const stats = await startBackupStats({
      env: { ...pushgateway, OTEL_SERVICE_NAME: 'default-url', OTEL_RESOURCE_ATTRIBUTES: 'service.instance.id=i-1' },
    });
    expect(stats.shutdownTimeoutMillis).toBe(31_000);
    // A reader with nothing collected exports nothing: record one operation.
    stats.backup.scope({ operation: 'Backup' }).timedIncrement(1);
    await stats.shutdown();
    const said = diagnostics.messages.join('\n');
    expect(said, 'was the push accepted? something listens on localhost:9091 (a Pushgateway service?)').toContain(
      'the Pushgateway exporter (POST http://localhost:9091/metrics/job/default-url/instance/i-1) did not deliver',
    );
  });
});

describe('createPushgatewayExporter options', () => {
  const cases: Array<[string, unknown, string]> = [
    [
      'an options string',
      'http://pg:9091',
      'backupstats: createPushgatewayExporter options is "http://pg:9091"; accepted: an object',
    ],
    [
      'url',
      { url: 'pg:9091' },
      'backupstats: createPushgatewayExporter option url is "pg:9091"; accepted: an http:// or https:// URL',
    ],
    ['url', { url: 9091 }, 'createPushgatewayExporter option url is a value of type number'],
    ['job', { job: '' }, 'createPushgatewayExporter option job is ""; accepted: a non-empty string'],
    ['instance', { instance: 7 }, 'createPushgatewayExporter option instance is 7; accepted: a non-empty string'],
    [
      'grouping',
      { grouping: { job: 'x' } },
      'option grouping is an object (it has the label name "job": "job" is already in every grouping key); accepted: an object of Prometheus label names',
    ],
    ['grouping', { grouping: { 'a-b': 'x' } }, 'it has the label name "a-b"'],
    [
      'grouping',
      { grouping: { tier: 1 } },
      'createPushgatewayExporter option grouping.tier is 1; accepted: a non-empty string',
    ],
    ['grouping', { grouping: ['a'] }, 'createPushgatewayExporter option grouping is an instance of Array'],
    [
      'timeoutMillis',
      { timeoutMillis: 0 },
      'option timeoutMillis is 0; accepted: an integer from 1 to 2147483647 (milliseconds)',
    ],
    ['timeoutMillis', { timeoutMillis: 1.5 }, 'option timeoutMillis is 1.5'],
  ];
  it.each(cases)('%s: %j', (_, options, message) => {
    expect(() => createPushgatewayExporter(options as PushgatewayExporterOptions)).toThrow(TypeError);
    expect(() => createPushgatewayExporter(options as PushgatewayExporterOptions)).toThrow(message);
    expectDocumentedCode(
      thrownBy(() => createPushgatewayExporter(options as PushgatewayExporterOptions)),
      'BACKUPSTATS_INVALID_OPTION',
    );
  });

  it.each([
    ['credentials in a URL that is not http', { url: 'ftp://s3cr3t-user:s3cr3t-pw@pg' }],
    ['a header value with a newline', { headers: { authorization: 'Bearer s3cr3t\nx' } }],
    ['a header value that is not a string', { headers: { 's3cr3t-name': 5 } }],
  ])('%s: refused without showing it', (_, options) => {
    let error: unknown;
    try {
      createPushgatewayExporter(options as PushgatewayExporterOptions);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toContain('<redacted>');
    expect(everyText(error)).not.toContain('s3cr3t');
  });

  it('credentials in the url and an authorization header: both options named, what is wrong said, neither shown', () => {
    let error: unknown;
    try {
      createPushgatewayExporter({ url: 'http://u:s3cr3t@pg', headers: { Authorization: 's3cr3t' } });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe(
      'backupstats: createPushgatewayExporter option url has credentials (user:password@) and option headers has an authorization header: both say how to authenticate (neither is shown, as they may hold secrets); accepted: one of the two, not both',
    );
    expect((error as { code?: unknown }).code).toBe('BACKUPSTATS_INVALID_OPTION');
    expect(everyText(error)).not.toContain('s3cr3t');
  });
});
