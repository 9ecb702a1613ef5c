// Read apart from the client (s3-client.ts), so that a run that never reaches S3 does not load the AWS SDK.
import { ExitCode, ToolError } from '../errors.js';

/** How to reach S3: AWS's own variables, or the embedded server. */
export interface S3Connection {
  /** A custom endpoint (S3-compatible server); undefined for AWS itself. */
  readonly endpoint: string | undefined;
  readonly region: string | undefined;
  /** Given for the embedded server; otherwise the SDK's default chain (AWS_ACCESS_KEY_ID, profiles, …). */
  readonly credentials?: { readonly accessKeyId: string; readonly secretAccessKey: string };
}

/**
 * Reads the connection from AWS's variables: `AWS_ENDPOINT_URL_S3` or `AWS_ENDPOINT_URL` for an S3-compatible
 * server, `AWS_REGION` or `AWS_DEFAULT_REGION`. Credentials are left to the SDK's default chain.
 */
export function s3ConnectionFromEnv(env: NodeJS.ProcessEnv): S3Connection {
  const name = env.AWS_ENDPOINT_URL_S3?.trim() ? 'AWS_ENDPOINT_URL_S3' : 'AWS_ENDPOINT_URL';
  const endpoint = env[name]?.trim() || undefined;
  if (endpoint !== undefined) {
    let url: URL | undefined;
    try {
      url = new URL(endpoint);
    } catch {
      url = undefined;
    }
    if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
      throw new ToolError(
        `${name} is ${JSON.stringify(endpoint)}; accepted: an http:// or https:// URL such as http://127.0.0.1:9000`,
        ExitCode.Usage,
      );
    }
  }
  const region = env.AWS_REGION?.trim() || env.AWS_DEFAULT_REGION?.trim() || undefined;
  return { endpoint, region };
}
