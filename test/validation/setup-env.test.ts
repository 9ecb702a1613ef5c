// Every invalid variable is rejected at set-up with its name, its value and what is accepted (the header variables,
// whose values are secrets and never shown, are setup-env-headers.test.ts).
import { describe, expect } from 'vitest';
import { expectDocumentedCode } from '../support/error-codes.js';
import { it } from '../support/fixtures.js';
import { setUpError } from '../support/set-up-error.js';

interface BadCase {
  readonly env: Record<string, string>;
  readonly variable: string;
  /** The text the message must show as the value (the raw value, quoted). */
  readonly shown: string;
  /** A fragment of the accepted values that the message must contain. */
  readonly accepted: string;
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
    accepted: '"otlp", "prometheus", "pushgateway", "textfile", "console" or "none"',
  },
  {
    env: { OTEL_METRICS_EXPORTER: 'console,logging' },
    variable: 'OTEL_METRICS_EXPORTER',
    shown: '"console,logging"',
    accepted: '"otlp", "prometheus", "pushgateway", "textfile", "console" or "none"',
  },
  {
    env: { OTEL_METRICS_EXPORTER: ' , ' },
    variable: 'OTEL_METRICS_EXPORTER',
    shown: '" , "',
    accepted: '"otlp", "prometheus", "pushgateway", "textfile", "console" or "none"',
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
    env: { ...json, BACKUPSTATS_REPORT_PATH: '/nonexistent-folder/report.html' },
    variable: 'BACKUPSTATS_REPORT_PATH',
    shown: '"/nonexistent-folder/report.html"',
    accepted: 'the path of an HTML file to write at shutdown, in a folder that exists',
  },
  {
    env: { ...json, BACKUPSTATS_REPORT_PATH: '/tmp' },
    variable: 'BACKUPSTATS_REPORT_PATH',
    shown: '"/tmp" (it is a folder)',
    accepted: 'in a folder that exists (not a folder itself)',
  },
  {
    env: { ...json, BACKUPSTATS_METRIC_PREFIX: '9lives_' },
    variable: 'BACKUPSTATS_METRIC_PREFIX',
    shown: '"9lives_"',
    accepted: 'a letter first',
  },
];

describe('startBackupStats rejects every invalid variable with its name, its value and what is accepted', () => {
  it.each(badValues)('$variable = $shown', async ({ env, variable, shown, accepted }) => {
    const error = await setUpError(env);
    expect(error).toBeInstanceOf(TypeError);
    expectDocumentedCode(error, 'BACKUPSTATS_INVALID_ENV');
    expect(error.message).toContain(`${variable} is ${shown}`);
    expect(error.message).toContain('accepted:');
    expect(error.message).toContain(accepted);
  });
});

describe('OTEL_METRICS_EXPORTER', () => {
  it.each([
    ['jaeger', '"jaeger" is not an exporter'],
    [' , ', 'it names no exporter'],
    ['none,console', '"none" cannot be combined with an exporter'],
  ])(
    '%j: the whole message says what is wrong with the list, between the value and what is accepted',
    async (value, detail) => {
      const error = await setUpError({ OTEL_METRICS_EXPORTER: value });
      expect(error.message).toBe(
        `backupstats: OTEL_METRICS_EXPORTER is ${JSON.stringify(value)} (${detail}); ` +
          'accepted: a comma-separated list of "otlp", "prometheus", "pushgateway", "textfile", "console" or "none" ("none" alone)',
      );
    },
  );
});

describe('a timer variable', () => {
  it('says the whole range and that it counts milliseconds', async () => {
    const error = await setUpError({ OTEL_METRICS_EXPORTER: 'otlp', OTEL_METRIC_EXPORT_INTERVAL: '0' });
    expect(error.message).toBe(
      'backupstats: OTEL_METRIC_EXPORT_INTERVAL is "0"; accepted: an integer from 1 to 2147483647 (milliseconds)',
    );
  });
});
