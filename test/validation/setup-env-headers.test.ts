// Header values are secrets: every invalid OTEL_EXPORTER_OTLP_*HEADERS value is rejected at set-up, naming the
// variable and what is accepted, and no message, stack, cause or diag line shows any fragment of it.
import { describe, expect } from 'vitest';
import { it } from '../support/fixtures.js';
import { setUpError } from '../support/set-up-error.js';

interface SecretCase {
  readonly env: Record<string, string>;
  readonly variable: string;
  /** A fragment of the accepted values that the message must contain. */
  readonly accepted: string;
  /** What is wrong, for the test's name. */
  readonly what: string;
}

const json = { OTEL_METRICS_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' };

const badHeaders: SecretCase[] = [
  {
    env: { ...json, OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer%20s3cr3t-1,s3cr3t-2' },
    variable: 'OTEL_EXPORTER_OTLP_HEADERS',
    accepted: 'comma-separated key=value pairs',
    what: 'an entry without "="',
  },
  {
    env: { ...json, OTEL_EXPORTER_OTLP_METRICS_HEADERS: 'api-key=s3cr3t-3%E0%A4%A' },
    variable: 'OTEL_EXPORTER_OTLP_METRICS_HEADERS',
    accepted: 'percent-encoded values',
    what: 'a malformed escape',
  },
  {
    env: { ...json, OTEL_EXPORTER_OTLP_HEADERS: 's3cr3t 4=x' },
    variable: 'OTEL_EXPORTER_OTLP_HEADERS',
    accepted: 'HTTP header names',
    what: 'a key with a space',
  },
  {
    env: { ...json, OTEL_EXPORTER_OTLP_HEADERS: 'x-s3cr3t-5=' },
    variable: 'OTEL_EXPORTER_OTLP_HEADERS',
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
    accepted: 'gRPC metadata keys',
    what,
  });
}

describe('startBackupStats with an invalid header variable', () => {
  it.for(badHeaders)(
    '$variable (a secret) with $what is named but never shown',
    async ({ env, variable, accepted }, { diagnostics }) => {
      const error = await setUpError(env);
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

// What is wrong with a refused key, stated plainly: which rule the key breaks (or that it is empty).
describe('a refused key of a key=value variable', () => {
  it.for([
    [
      'an HTTP header name with a space (a secret: the entry is not shown)',
      { ...json, OTEL_EXPORTER_OTLP_HEADERS: 'x-ok=1,s3cr3t key=2' },
      `(entry 2 of 2 has a key that cannot be an HTTP header name (only letters, digits and !#$%&'*+-.^_\`|~ may be in one); the text is not shown because it may hold secrets)`,
    ],
    [
      'a gRPC metadata key ending in -bin',
      { ...grpc, OTEL_EXPORTER_OTLP_HEADERS: 'auth-bin=s3cr3t' },
      '(entry 1 of 1 has a key that gRPC refuses as metadata (letters, digits, "_", "." and "-" only; none ending in "-bin" or starting with "grpc-"); the text is not shown because it may hold secrets)',
    ],
    [
      'an empty resource attribute key',
      { OTEL_SDK_DISABLED: 'false', OTEL_METRICS_EXPORTER: 'none', OTEL_RESOURCE_ATTRIBUTES: 'host.name=db-1,=prod' },
      'OTEL_RESOURCE_ATTRIBUTES is "host.name=db-1,=prod" (entry 2 of 2, "=prod", has an empty key)',
    ],
  ] as const)('%s', async ([, env, said]) => {
    const error = await setUpError(env);
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toContain(said);
    expect(error.message).not.toContain('is not one of the');
    expect(error.message).not.toContain('s3cr3t');
  });
});
