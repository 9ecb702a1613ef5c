import { byteLengthOf } from '../base/values.js';

/** The parts of a smithy HttpRequest / HttpResponse read here. */
export interface HttpMessage {
  readonly method?: string | undefined;
  readonly headers?: Record<string, string | undefined> | undefined;
  readonly body?: unknown;
}

/**
 * Bytes of a message's body as declared: `x-amz-decoded-content-length` (the payload of an `aws-chunked`
 * upload), else `Content-Length`, else the length of a string or binary body; 0 when unknown (a stream
 * without a declared length). The SDK writes header names in lower case; Node's responses have them so too.
 */
export function declaredBodyBytes(message: HttpMessage | undefined, payload: boolean): number {
  if (message === undefined || message === null) return 0;
  const headers = message.headers;
  if (headers !== undefined && headers !== null) {
    const declared = (payload ? headers['x-amz-decoded-content-length'] : undefined) ?? headers['content-length'];
    if (declared !== undefined) {
      const bytes = Number(declared);
      if (Number.isSafeInteger(bytes) && bytes >= 0) return bytes;
    }
  }
  const body = message.body;
  return typeof body === 'string' || ArrayBuffer.isView(body) ? byteLengthOf(body) : 0;
}
