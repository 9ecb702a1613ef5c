// @ts-nocheck
import { corruptedError, ExitCode, errorCode, ToolError } from '../errors.js';
import type { S3Connection } from './s3-connection.js';

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
]);
const DENIED_NAMES = new Set([
  'AccessDenied',
  'InvalidAccessKeyId',
  'SignatureDoesNotMatch',
  'CredentialsProviderError',
  'ExpiredToken',
  'InvalidToken',
]);

interface SdkError {
  readonly name?: string;
  readonly message?: string;
  readonly $metadata?: { readonly httpStatusCode?: number };
}

function describe(error: unknown): string {
  const e = error as SdkError | null;
  const text = `${e?.name ?? 'Error'}: ${e?.message ?? String(error)}`;
  // One line, whatever the SDK or the server put in the message.
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * Turns an error met while talking to S3 into one line and an exit code: 6 the endpoint cannot be reached,
 * 7 the bucket does not exist, 8 access denied (or no credentials), 2 no region; `fallback` for the rest.
 * `url` is the s3:// URL of what was being read or written.
 */
export function s3Error(
  error: unknown,
  url: string,
  connection: S3Connection,
  fallback: (error: unknown) => ToolError,
): ToolError {
  if (error instanceof ToolError) return error;
  const e = (error ?? {}) as SdkError;
  const status = e.$metadata?.httpStatusCode;
  const endpoint = connection.endpoint ?? 'of AWS';
  if (status === undefined && (NETWORK_CODES.has(errorCode(error) ?? '') || e.name === 'TimeoutError')) {
    return new ToolError(
      `cannot reach the S3 endpoint ${endpoint} for ${url} (${describe(error)})`,
      ExitCode.StorageUnreachable,
      { cause: error },
    );
  }
  if (e.name === 'NoSuchBucket') {
    const bucket = /^s3:\/\/([^/]+)/.exec(url)?.[1] ?? url;
    return new ToolError(
      `cannot use ${url}: the bucket ${bucket} does not exist at the S3 endpoint ${endpoint} (NoSuchBucket)`,
      ExitCode.BucketMissing,
      {
        cause: error,
      },
    );
  }
  if (status === 403 || DENIED_NAMES.has(e.name ?? '')) {
    return new ToolError(
      `access to ${url} was denied (${describe(error)}); check the credentials: AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY or AWS_PROFILE`,
      ExitCode.AccessDenied,
      { cause: error },
    );
  }
  if (/region is missing/i.test(e.message ?? '')) {
    return new ToolError(`no AWS region for ${url}: set AWS_REGION (for example us-east-1)`, ExitCode.Usage, {
      cause: error,
    });
  }
  return fallback(error);
}

/** An error met reading `url`: a missing object or damaged data is a damaged backup (exit code 5). */
export function s3ReadError(error: unknown, url: string, connection: S3Connection): ToolError {
  return s3Error(error, url, connection, (other) => {
    const name = (other as SdkError | null)?.name;
    if (name === 'NoSuchKey' || name === 'NotFound') {
      return new ToolError(`cannot restore from ${url}: does not exist (${name})`, ExitCode.Corrupted, {
        cause: other,
      });
    }
    if (name !== undefined && (other as SdkError).$metadata !== undefined) {
      return new ToolError(`cannot read ${url}: ${describe(other)}`, ExitCode.Unexpected, { cause: other });
    }
    return corruptedError(url, other);
  });
}

/** An error met writing `url`: besides the cases of {@link s3Error}, the storage refused the data (exit code 4). */
export function s3WriteError(error: unknown, url: string, connection: S3Connection): ToolError {
  return s3Error(
    error,
    url,
    connection,
    (other) => new ToolError(`cannot write ${url}: ${describe(other)}`, ExitCode.Destination, { cause: other }),
  );
}
