// @ts-nocheck
// The AWS SDK's own rule for a throttling error (`isThrottlingError` of its retry strategy, in
// @smithy/service-error-classification, now @smithy/core/retry), so that what is counted as throttled is what
// the SDK backs off for. Mirrored rather than imported: the rule has moved between packages across SDK
// releases, and a transitive package of the SDK cannot be resolved from here under strict layouts (pnpm).
const THROTTLING_ERROR_CODES: ReadonlySet<string> = new Set([
  'BandwidthLimitExceeded',
  'EC2ThrottledException',
  'LimitExceededException',
  'PriorRequestNotComplete',
  'ProvisionedThroughputExceededException',
  'RequestLimitExceeded',
  'RequestThrottled',
  'RequestThrottledException',
  'SlowDown',
  'ThrottledException',
  'Throttling',
  'ThrottlingException',
  'TooManyRequestsException',
  'TransactionInProgressException',
]);

interface SdkError {
  readonly name?: unknown;
  readonly $metadata?: { readonly httpStatusCode?: unknown } | undefined;
  readonly $retryable?: { readonly throttling?: unknown } | undefined;
}

/** True when the service throttled the attempt (HTTP 429, `SlowDown` and the other throttling codes). */
export function isThrottling(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const e = error as SdkError;
  return (
    e.$metadata?.httpStatusCode === 429 ||
    (typeof e.name === 'string' && THROTTLING_ERROR_CODES.has(e.name)) ||
    e.$retryable?.throttling === true
  );
}
