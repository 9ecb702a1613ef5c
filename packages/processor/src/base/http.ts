import { type ErrorCode, withCode } from './errors.js';

// The rules of HTTP that both set-up (OTLP and Pushgateway variables) and `backupstats/pushgateway` (its options)
// apply: what a header may hold, how a URL is shown without its secrets, and who says how to authenticate.

/** How a variable of `key=value` pairs (set-up's `readPairs`) or an object of headers is checked and shown. */
export interface PairsRule {
  /** Keys that are accepted, and how the error message words them. */
  readonly key: RegExp;
  readonly keyText: string;
  /** What is wrong with a key the rule refuses, after "entry N of M has": the rule it breaks, stated plainly. */
  readonly badKey: string;
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
  badKey: "a key that cannot be an HTTP header name (only letters, digits and !#$%&'*+-.^_`|~ may be in one)",
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
  badKey:
    'a key that gRPC refuses as metadata (letters, digits, "_", "." and "-" only; none ending in "-bin" or starting with "grpc-")',
};

/**
 * A URL's text for a message, with what may be a credential hidden: the user information before `@` and the
 * query after `?`. Works on text that does not parse as a URL too, since that is when it is shown.
 */
export function redactUrl(text: string): string {
  return text.replace(/^([^/?#]*\/\/)[^/?#]*@/, '$1<redacted>@').replace(/\?[^#]*/, '?<redacted>');
}

/**
 * Adds the basic authentication taken from a URL's `user:password@` to `headers` (lower-case names), refusing
 * headers that carry an authorization of their own: `url` and `headersName` name the two settings in the error
 * (`BACKUPSTATS_PUSHGATEWAY_URL`, or `createPushgatewayExporter option url`), which shows neither value; `code` says
 * whether they are variables or options.
 */
export function addUrlCredentials(
  code: ErrorCode,
  headers: Record<string, string>,
  authorization: string | undefined,
  url: string,
  headersName: string,
): void {
  if (authorization === undefined) return;
  if ('authorization' in headers) {
    throw withCode(
      new TypeError(
        `backupstats: ${url} has credentials (user:password@) and ${headersName} has an authorization header: both say how to authenticate (neither is shown, as they may hold secrets); accepted: one of the two, not both`,
      ),
      code,
    );
  }
  headers.authorization = authorization;
}
