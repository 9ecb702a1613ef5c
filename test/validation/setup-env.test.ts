// Every invalid variable is rejected at set-up with its name, its value (never a secret's) and what is accepted.
import { startBackupStats } from 'backupstats/setup';
import { describe, expect } from 'vitest';
import { it } from '../support/fixtures.js';

interface BadCase {
  readonly env: Record<string, string>;
  readonly variable: string;
  /** The text the message must show as the value (the raw value, quoted), or undefined for secrets. */
  readonly shown: string | undefined;
  /** A fragment of the accepted values that the message must contain. */
  readonly accepted: string;
  /** What is wrong, for the test's name when the value is a secret. */
  readonly what?: string;
}

// Every case also sets a valid exporter so that the variable under test is the one that is read and rejected.
const prometheus = { OTEL_METRICS_EXPORTER: 'prometheus', OTEL_EXPORTER_PROMETHEUS_HOST: '127.0.0.1' };
const json = { OTEL_METRICS_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' };

const badValues: BadCase[] = [
  { env: { OTEL_SDK_DISABLED: 'yes' }, variable: 'OTEL_SDK_DISABLED', shown: '"yes"', accepted: '"true" or "false"' },
  { env: { BACKUPSTATS_DISABLED: '1' }, variable: 'BACKUPSTATS_DISABLED', shown: '"1"', accepted: '"true" or "false"' },
  {
    env: { OTEL_METRICS_EXPORTER: 'jaeger' },
    variable: 'OTEL_METRICS_EXPORTER',
    shown: '"jaeger"',
    accepted: '"otlp", "prometheus", "pushgateway", "console" or "none"',
  },
  {
    env: { OTEL_METRICS_EXPORTER: 'console,logging' },
    variable: 'OTEL_METRICS_EXPORTER',
    shown: '"console,logging"',
    accepted: '"otlp", "prometheus", "pushgateway", "console" or "none"',
  },
  {
    env: { OTEL_METRICS_EXPORTER: ' , ' },
    variable: 'OTEL_METRICS_EXPORTER',
    shown: '" , "',
    accepted: '"otlp", "prometheus", "pushgateway", "console" or "none"',
  },
  {
    env: { OTEL_METRICS_EXPORTER: 'none,console' },
    variable: 'OTEL_METRICS_EXPORTER',
    shown: '"none,console"',
    accepted: '"none" alone',
  },
  {
    env: { ...json, OTEL_METRIC_EXPORT_INTERVAL: '-5' },
    variable: 'OTEL_METRIC_EXPORT_INTERVAL',
    shown: '"-5"',
    accepted: 'an integer from 1 to 2147483647',
  },
  {
    env: { ...json, OTEL_METRIC_EXPORT_INTERVAL: '1.5' },
    variable: 'OTEL_METRIC_EXPORT_INTERVAL',
    shown: '"1.5"',
    accepted: 'an integer from 1',
  },
  {
    env: { ...json, OTEL_METRIC_EXPORT_INTERVAL: '0' },
    variable: 'OTEL_METRIC_EXPORT_INTERVAL',
    shown: '"0"',
    accepted: 'an integer from 1',
  },
  {
    env: { ...json, OTEL_METRIC_EXPORT_INTERVAL: '60s' },
    variable: 'OTEL_METRIC_EXPORT_INTERVAL',
    shown: '"60s"',
    accepted: 'an integer from 1',
  },
  {
    env: { ...json, OTEL_METRIC_EXPORT_TIMEOUT: 'soon' },
    variable: 'OTEL_METRIC_EXPORT_TIMEOUT',
    shown: '"soon"',
    accepted: 'an integer from 1',
  },
  {
    env: { ...json, OTEL_METRIC_EXPORT_INTERVAL: '1000', OTEL_METRIC_EXPORT_TIMEOUT: '5000' },
    variable: 'OTEL_METRIC_EXPORT_TIMEOUT',
    shown: '"5000"',
    accepted: 'an integer from 1 to OTEL_METRIC_EXPORT_INTERVAL (1000)',
  },
  {
    env: { ...json, OTEL_EXPORTER_OTLP_PROTOCOL: 'http' },
    variable: 'OTEL_EXPORTER_OTLP_PROTOCOL',
    shown: '"http"',
    accepted: '"http/protobuf", "http/json" or "grpc"',
  },
  {
    env: { ...json, OTEL_EXPORTER_OTLP_METRICS_PROTOCOL: 'grpc/json' },
    variable: 'OTEL_EXPORTER_OTLP_METRICS_PROTOCOL',
    shown: '"grpc/json"',
    accepted: '"http/protobuf", "http/json" or "grpc"',
  },
  {
    env: { ...json, OTEL_EXPORTER_OTLP_ENDPOINT: 'localhost:4318' },
    variable: 'OTEL_EXPORTER_OTLP_ENDPOINT',
    shown: '"localhost:4318"',
    accepted: 'an http:// or https:// URL',
  },
  {
    env: { ...json, OTEL_EXPORTER_OTLP_ENDPOINT: 'ftp://collector' },
    variable: 'OTEL_EXPORTER_OTLP_ENDPOINT',
    shown: '"ftp://collector"',
    accepted: 'an http:// or https:// URL',
  },
  {
    env: { ...json, OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: 'not a url' },
    variable: 'OTEL_EXPORTER_OTLP_METRICS_ENDPOINT',
    shown: '"not a url"',
    accepted: 'an http:// or https:// URL',
  },
  {
    env: { ...json, OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE: 'sometimes' },
    variable: 'OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE',
    shown: '"sometimes"',
    accepted: '"cumulative", "delta" or "lowmemory"',
  },
  {
    env: { ...prometheus, OTEL_EXPORTER_PROMETHEUS_PORT: '70000' },
    variable: 'OTEL_EXPORTER_PROMETHEUS_PORT',
    shown: '"70000"',
    accepted: 'an integer from 1 to 65535',
  },
  {
    env: { ...prometheus, OTEL_EXPORTER_PROMETHEUS_PORT: '0' },
    variable: 'OTEL_EXPORTER_PROMETHEUS_PORT',
    shown: '"0"',
    accepted: 'an integer from 1 to 65535',
  },
  {
    env: { ...prometheus, OTEL_EXPORTER_PROMETHEUS_PORT: '-1' },
    variable: 'OTEL_EXPORTER_PROMETHEUS_PORT',
    shown: '"-1"',
    accepted: 'an integer from 1 to 65535',
  },
  {
    env: { ...prometheus, OTEL_EXPORTER_PROMETHEUS_PORT: 'http' },
    variable: 'OTEL_EXPORTER_PROMETHEUS_PORT',
    shown: '"http"',
    accepted: 'an integer from 1 to 65535',
  },
  {
    env: { ...json, OTEL_RESOURCE_ATTRIBUTES: 'team' },
    variable: 'OTEL_RESOURCE_ATTRIBUTES',
    shown: '"team"',
    accepted: 'comma-separated key=value pairs',
  },
  {
    env: { ...json, OTEL_RESOURCE_ATTRIBUTES: 'a=1,b=%zz' },
    variable: 'OTEL_RESOURCE_ATTRIBUTES',
    shown: '"a=1,b=%zz"',
    accepted: 'percent-encoded values',
  },
  {
    env: { ...json, BACKUPSTATS_NAMING: 'prometheus' },
    variable: 'BACKUPSTATS_NAMING',
    shown: '"prometheus"',
    accepted: '"otel" or "vitess"',
  },
  {
    env: { ...json, BACKUPSTATS_FLUSH_INTERVAL_MS: '-1' },
    variable: 'BACKUPSTATS_FLUSH_INTERVAL_MS',
    shown: '"-1"',
    accepted: 'an integer from 0 to 2147483647',
  },
  {
    env: { ...json, BACKUPSTATS_FLUSH_INTERVAL_MS: '2.5' },
    variable: 'BACKUPSTATS_FLUSH_INTERVAL_MS',
    shown: '"2.5"',
    accepted: 'an integer from 0',
  },
  {
    env: { ...json, BACKUPSTATS_MAX_SCOPES: '1' },
    variable: 'BACKUPSTATS_MAX_SCOPES',
    shown: '"1"',
    accepted: 'an integer of 2 or more',
  },
  {
    env: { ...json, BACKUPSTATS_METRIC_PREFIX: '9lives_' },
    variable: 'BACKUPSTATS_METRIC_PREFIX',
    shown: '"9lives_"',
    accepted: 'a letter first',
  },
];

// Header values are secrets: the message shows neither them nor any fragment of the variable.
const badHeaders: BadCase[] = [
  {
    env: { ...json, OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer%20s3cr3t-1,s3cr3t-2' },
    variable: 'OTEL_EXPORTER_OTLP_HEADERS',
    shown: undefined,
    accepted: 'comma-separated key=value pairs',
    what: 'an entry without "="',
  },
  {
    env: { ...json, OTEL_EXPORTER_OTLP_METRICS_HEADERS: 'api-key=s3cr3t-3%E0%A4%A' },
    variable: 'OTEL_EXPORTER_OTLP_METRICS_HEADERS',
    shown: undefined,
    accepted: 'percent-encoded values',
    what: 'a malformed escape',
  },
  {
    env: { ...json, OTEL_EXPORTER_OTLP_HEADERS: 's3cr3t 4=x' },
    variable: 'OTEL_EXPORTER_OTLP_HEADERS',
    shown: undefined,
    accepted: 'HTTP header names',
    what: 'a key with a space',
  },
  {
    env: { ...json, OTEL_EXPORTER_OTLP_HEADERS: 'x-s3cr3t-5=' },
    variable: 'OTEL_EXPORTER_OTLP_HEADERS',
    shown: undefined,
    accepted: 'comma-separated key=value pairs',
    what: 'an empty value',
  },
];

// Values that no HTTP stack or gRPC metadata accepts. Each must be rejected at set-up (not fail every export
// later), over every protocol, and no dependency may get to quote it in its own error.
const grpc = { OTEL_METRICS_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' };
const protobuf = { OTEL_METRICS_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf' };
const badHeaderValues = [
  ['a non-ASCII letter', 'authorization=Bearer%20s3cr3t-t%C3%B6ken'],
  ['a euro sign', 'authorization=Bearer%20s3cr3t%E2%82%AC'],
  ['CR LF (header injection)', 'authorization=Bearer%20s3cr3t%0D%0Ax-evil:%201'],
  ['a newline', 'authorization=Bearer%20s3cr3t%0Atoken'],
  ['a tab', 'authorization=Bearer%09s3cr3t'],
  ['another control character', 'authorization=Bearer%20s3cr3t%01'],
  ['DEL', 'authorization=Bearer%20s3cr3t%7F'],
] as const;
for (const [what, headers] of badHeaderValues) {
  for (const [protocol, base] of [
    ['http/json', json],
    ['http/protobuf', protobuf],
    ['grpc', grpc],
  ] as const) {
    const variable = what === 'a newline' ? 'OTEL_EXPORTER_OTLP_METRICS_HEADERS' : 'OTEL_EXPORTER_OTLP_HEADERS';
    badHeaders.push({
      env: { ...base, [variable]: headers },
      variable,
      shown: undefined,
      accepted: 'printable ASCII',
      what: `${what} over ${protocol}`,
    });
  }
}
// gRPC metadata keys are stricter than HTTP header names: lower-case letters, digits, "_", "." and "-" only,
// "-bin" keys carry binary values and "grpc-" keys are reserved.
for (const [what, headers] of [
  ['a key ending in -bin', 'auth-bin=s3cr3t'],
  ['a reserved grpc- key', 'grpc-s3cr3t=x'],
  ['a key with a character gRPC refuses', 'x!s3cr3t=y'],
] as const) {
  badHeaders.push({
    env: { ...grpc, OTEL_EXPORTER_OTLP_HEADERS: headers },
    variable: 'OTEL_EXPORTER_OTLP_HEADERS',
    shown: undefined,
    accepted: 'gRPC metadata keys',
    what,
  });
}

async function startError(env: Record<string, string>): Promise<Error> {
  try {
    const stats = await startBackupStats({ env });
    await stats.shutdown();
  } catch (error) {
    if (error instanceof Error) return error;
    throw error;
  }
  throw new Error(`startBackupStats accepted ${JSON.stringify(env)}`);
}

describe('startBackupStats rejects every invalid variable with its name, its value and what is accepted', () => {
  it.each(badValues)('$variable = $shown', async ({ env, variable, shown, accepted }) => {
    const error = await startError(env);
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toContain(`${variable} is ${shown}`);
    expect(error.message).toContain('accepted:');
    expect(error.message).toContain(accepted);
  });

  it.for(badHeaders)(
    '$variable (a secret) with $what is named but never shown',
    async ({ env, variable, accepted }, { diagnostics }) => {
      const error = await startError(env);
      expect(error).toBeInstanceOf(TypeError);
      expect(error.message).toContain(`${variable} is <redacted>`);
      expect(error.message).toContain(accepted);
      // Not in the message, the stack, any cause, nor anything logged on the way.
      for (let e: unknown = error; e !== undefined; e = (e as Error).cause) {
        expect(String((e as Error).message)).not.toContain('s3cr3t');
        expect(String((e as Error).stack)).not.toContain('s3cr3t');
      }
      expect(diagnostics.messages.join('\n')).not.toContain('s3cr3t');
    },
  );
});

describe('OTEL_METRICS_EXPORTER', () => {
  it.each([
    ['jaeger', '"jaeger" is not an exporter'],
    [' , ', 'it names no exporter'],
    ['none,console', '"none" cannot be combined with an exporter'],
  ])(
    '%j: the whole message says what is wrong with the list, between the value and what is accepted',
    async (value, detail) => {
      const error = await startError({ OTEL_METRICS_EXPORTER: value });
      expect(error.message).toBe(
        `backupstats: OTEL_METRICS_EXPORTER is ${JSON.stringify(value)} (${detail}); ` +
          'accepted: a comma-separated list of "otlp", "prometheus", "pushgateway", "console" or "none" ("none" alone)',
      );
    },
  );
});

describe('a timer variable', () => {
  it('says the whole range and that it counts milliseconds', async () => {
    const error = await startError({ OTEL_METRICS_EXPORTER: 'otlp', OTEL_METRIC_EXPORT_INTERVAL: '0' });
    expect(error.message).toBe(
      'backupstats: OTEL_METRIC_EXPORT_INTERVAL is "0"; accepted: an integer from 1 to 2147483647 (milliseconds)',
    );
  });
});
