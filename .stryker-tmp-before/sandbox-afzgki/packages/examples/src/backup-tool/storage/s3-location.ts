// @ts-nocheck
import { ExitCode, ToolError } from '../errors.js';

/** A bucket and a key prefix (empty, or ending in `/`). */
export interface S3Location {
  readonly bucket: string;
  readonly prefix: string;
}

/** True when `text` names S3 storage rather than a folder. */
export function isS3Url(text: string): boolean {
  return /^s3:\/\//i.test(text);
}

// S3's rules for a bucket name: 3-63 lower-case letters, digits, dots and hyphens, starting and ending with a
// letter or digit.
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/** Parses `s3://bucket[/prefix]`; a usage error (exit code 2) names the option, its value and what is accepted. */
export function parseS3Location(text: string, name: string): S3Location {
  const match = /^s3:\/\/([^/]*)\/?(.*)$/i.exec(text);
  const bucket = match?.[1] ?? '';
  const rest = match?.[2] ?? '';
  if (
    !BUCKET.test(bucket) ||
    rest.split('/').some((part, i, all) => part === '' && i < all.length - 1) ||
    rest.startsWith('/')
  ) {
    throw new ToolError(
      `${name} is ${JSON.stringify(text)}; accepted: a folder, or s3://bucket/prefix with a bucket name of 3-63 lower-case letters, digits, dots and hyphens`,
      ExitCode.Usage,
    );
  }
  return { bucket, prefix: rest === '' || rest.endsWith('/') ? rest : `${rest}/` };
}

/** The `s3://` URL of `key` under the location (or of the location itself). */
export function s3Url(location: S3Location, key = ''): string {
  return `s3://${location.bucket}/${location.prefix}${key}`;
}

/** The location one level down, e.g. a cycle of `--loop`. */
export function below(location: S3Location, folder: string): S3Location {
  return { bucket: location.bucket, prefix: `${location.prefix}${folder}/` };
}
