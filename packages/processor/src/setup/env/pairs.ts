import { notAccepted, quote } from '../../diagnostics/error-messages.js';
import { type Env, readString, shown } from './env.js';

/** How {@link readPairs} checks and shows one variable. */
export interface PairsRule {
  /** Keys that are accepted, and how the error message words them. */
  readonly key: RegExp;
  readonly keyText: string;
  /** Values that are accepted once percent-decoded, and how the error message words them. */
  readonly value: RegExp;
  readonly valueText: string;
  /** Secret values (OTLP headers) never appear in an error: not the value, not a key, not a fragment. */
  readonly secret: boolean;
  /** A key given twice is refused (rather than the last one kept). */
  readonly unique?: boolean;
  readonly example: string;
}

// Header values are checked here rather than left to the transport: Node's HTTP client would fail every
// export later (ERR_INVALID_CHAR) while set-up succeeded, and grpc-js throws an error that quotes the value.
// Printable ASCII is what both accept (grpc-js: /^[ -~]*$/; RFC 9110 also allows tab and obsolete 8-bit
// text, which gRPC refuses).
const HEADER_VALUE = /^[\x20-\x7e]+$/;
const HEADER_VALUE_TEXT =
  'percent-encoded values that decode to printable ASCII (space to "~"; no control character such as CR, LF or tab, nothing beyond ASCII)';

/** OTLP/HTTP headers: names are RFC 9110 tokens. */
export const HEADER_RULE: PairsRule = {
  key: /^[!#$%&'*+.^`|~\w-]+$/,
  keyText: 'HTTP header names',
  value: HEADER_VALUE,
  valueText: HEADER_VALUE_TEXT,
  secret: true,
  example: '"api-key=<secret>,x-tenant=team%20a"',
};

/**
 * OTLP/gRPC headers, sent as metadata: grpc-js accepts lower-case letters, digits, "_", "." and "-" (names
 * are lower-cased first), takes "-bin" keys for binary values and reserves "grpc-" keys.
 */
export const GRPC_HEADER_RULE: PairsRule = {
  ...HEADER_RULE,
  key: /^(?!grpc-)(?!.*-bin$)[0-9a-z_.-]+$/i,
  keyText: 'gRPC metadata keys (letters, digits, "_", "." and "-"; not ending in "-bin", not starting with "grpc-")',
};

/** Resource attribute keys: any non-empty text. */
export const ATTRIBUTE_RULE: PairsRule = {
  key: /^.+$/s,
  keyText: 'non-empty keys',
  value: /^[\s\S]+$/,
  valueText: 'percent-encoded values',
  secret: false,
  example: '"deployment.environment=prod,host.name=db-1"',
};

/**
 * Parses OpenTelemetry's `key1=value1,key2=value2` list (W3C Baggage without properties, values percent-encoded),
 * as `OTEL_EXPORTER_OTLP_HEADERS` and `OTEL_RESOURCE_ATTRIBUTES` use it. Empty entries (a trailing comma) are
 * skipped; any other malformed entry throws, where the OpenTelemetry SDK would drop it silently. Undefined when
 * the variable is unset.
 */
export function readPairs(env: Env, name: string, rule: PairsRule): Record<string, string> | undefined {
  const value = readString(env, name);
  if (value === undefined) return undefined;
  const entries = value.split(',');
  const out: Record<string, string> = {};
  entries.forEach((entry, index) => {
    if (entry.trim() === '') return;
    const fail = (problem: string): TypeError => {
      const where = `entry ${index + 1} of ${entries.length}`;
      const detail = rule.secret
        ? `${where} ${problem}; the text is not shown because it may hold secrets`
        : `${where}, ${quote(entry.trim())}, ${problem}`;
      return notAccepted(
        name,
        rule.secret ? '<redacted>' : shown(env, name),
        `comma-separated key=value pairs with ${rule.keyText} and ${rule.valueText}, e.g. ${rule.example}`,
        detail,
      );
    };
    const equals = entry.indexOf('=');
    if (equals < 0) throw fail('has no "="');
    const key = decode(entry.slice(0, equals).trim());
    const text = decode(entry.slice(equals + 1).trim());
    if (key === undefined || text === undefined) throw fail('has a malformed percent-escape');
    if (!rule.key.test(key)) throw fail(`has a key that is not one of the ${rule.keyText}`);
    if (rule.unique === true && Object.hasOwn(out, key)) throw fail(`repeats the key ${quote(key)}`);
    if (text === '') throw fail('has an empty value');
    if (!rule.value.test(text)) throw fail('has a value with a character that is not accepted');
    out[key] = text;
  });
  return out;
}

function decode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}
