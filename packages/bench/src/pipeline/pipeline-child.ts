// One pipeline mode in a process of its own, started by pipeline.ts with --expose-gc and kept for the whole
// benchmark. Every mode gets its own V8 instance: the metered wrappers' call sites then see only the handle
// class of their mode, as in an application, instead of the four classes of a shared process (which would
// make them megamorphic and slow every metered mode down).
import { isPipelineMode } from './pipeline-modes.js';
import { expectedDigest, measureClockRead, runFresh, runOnce, runTree, sampleData, setUpMode } from './pipeline-run.js';
import type { DestinationKind } from './stages.js';

/**
 * A request from the parent: push `total` bytes in `chunk`-byte chunks once, into the `destination` kind (sha1 by
 * default); or start `count` new pipelines of `total` bytes each (`fresh`); or read the `count` files of `tree` one
 * pipeline each; or time this process's clock (`clock`).
 */
interface RunRequest {
  readonly chunk: number;
  readonly total: number;
  readonly destination?: DestinationKind;
  readonly fresh?: number;
  readonly tree?: { readonly dir: string; readonly count: number };
  readonly clock?: true;
}

const failed = (error: unknown) =>
  send?.({ ok: false, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });

const mode = process.argv[2];
if (!isPipelineMode(mode)) throw new Error(`pipeline-child: unknown mode ${JSON.stringify(mode)}`);
const send = process.send?.bind(process);
if (send === undefined) throw new Error('pipeline-child: start it with child_process.fork');

const data = sampleData();
const setup = setUpMode(mode);
const digests = new Map<string, string>();

process.on('message', (message: RunRequest) => {
  if (message.clock === true) {
    send({ ok: true, clockReadNs: measureClockRead() });
    return;
  }
  if (message.fresh !== undefined) {
    runFresh(setup, data, message.chunk, message.total, message.fresh).then(
      (wallMs) => send({ ok: true, timing: { wallMs, cpuMs: 0, recordedSeconds: undefined } }),
      failed,
    );
    return;
  }
  if (message.tree !== undefined) {
    runTree(setup, message.tree.dir, message.tree.count).then((timing) => send({ ok: true, timing }), failed);
    return;
  }
  const kind = message.destination ?? 'sha1';
  const key = `${message.chunk}/${message.total}`;
  let expected = kind === 'sha1' ? digests.get(key) : '';
  if (expected === undefined) {
    expected = expectedDigest(data, message.chunk, message.total);
    digests.set(key, expected);
  }
  runOnce(setup, data, message.chunk, message.total, expected, kind).then(
    (timing) => send({ ok: true, timing }),
    (error: unknown) =>
      send({ ok: false, error: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
  );
});
send({ ready: true });
