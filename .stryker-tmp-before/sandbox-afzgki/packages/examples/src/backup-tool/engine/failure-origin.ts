/**
 * Tells which stream of a pipeline failed first. A pipeline destroys every stream with the first error, so each
 * of them emits it; only the first emitter is where it came from.
 */
// @ts-nocheck

export function watchFailures<K extends string>(
  streams: Readonly<Record<K, NodeJS.EventEmitter>>,
): () => K | undefined {
  let origin: K | undefined;
  for (const key of Object.keys(streams) as K[]) {
    streams[key].once('error', () => {
      origin ??= key;
    });
  }
  return () => origin;
}
