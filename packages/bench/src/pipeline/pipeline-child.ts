// The pipeline modes named on the command line, in a process of their own, started by pipeline.ts with
// --expose-gc and kept for the whole benchmark. A timed run gives every mode its own process and V8 instance: the
// metered wrappers' call sites then see only the handle class of their mode, as in an application, instead of the
// four classes of a shared process (which would make them megamorphic and slow every metered mode down). A quick
// run, whose figures mean nothing, runs every mode in one process.
import { isPipelineMode, type PipelineMode } from './pipeline-modes.js';
import { expectedDigest, measureClockRead, runFresh, runOnce, runTree, sampleData, setUpMode } from './pipeline-run.js';
import type { DestinationKind } from './stages.js';

/**
 * A request from the parent, for one of this process's modes: push `total` bytes in `chunk`-byte chunks once, into
 * the `destination` kind (sha1 by default); or start `count` new pipelines of `total` bytes each (`fresh`); or read
 * the `count` files of `tree` one pipeline each; or time this process's clock (`clock`).
 */
interface RunRequest {
  readonly mode: PipelineMode;
  readonly chunk: number;
  readonly total: number;
  readonly destination?: DestinationKind;
  readonly fresh?: number;
  readonly tree?: { readonly dir: string; readonly count: number };
  /** Time this process's clock over batches of this many reads. */
  readonly clock?: number;
}

const failed = (error: unknown) =>
  send?.({ ok: false, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });

const modes = process.argv.slice(2);
if (modes.length === 0 || !modes.every(isPipelineMode))
  throw new Error(`pipeline-child: unknown modes ${JSON.stringify(modes)}`);
const send = process.send?.bind(process);
if (send === undefined) throw new Error('pipeline-child: start it with child_process.fork');

const data = sampleData();
const setups = new Map(modes.map((mode) => [mode, setUpMode(mode)]));
const digests = new Map<string, string>();

process.on('message', (message: RunRequest) => {
  const setup = setups.get(message.mode);
  if (setup === undefined) {
    failed(new Error(`pipeline-child: no mode ${JSON.stringify(message.mode)} in this process`));
    return;
  }
  if (message.clock !== undefined) {
    send({ ok: true, clockReadNs: measureClockRead(message.clock) });
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
