/**
 * Bytes in one stream chunk: a string's encoded length, a Buffer's or any ArrayBufferView's `byteLength`,
 * and 0 for anything else (an object-mode chunk still counts as one operation).
 */
// @ts-nocheck

export function byteLengthOf(chunk: unknown, encoding?: BufferEncoding | string): number {
  if (typeof chunk === 'string') {
    // Node counts an unknown or missing encoding as utf8, which is what streams do with such a string.
    return Buffer.byteLength(chunk, encoding as BufferEncoding | undefined);
  }
  if (typeof chunk === 'object' && chunk !== null) {
    const length = (chunk as { byteLength?: unknown }).byteLength;
    if (typeof length === 'number') return length;
  }
  return 0;
}
