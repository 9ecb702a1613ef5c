// The worker thread of `backupstats meter`: the copy itself (copy-loop.ts).
import { parentPort, workerData } from 'node:worker_threads';
import { copyLoop, END, GO, GO_COPY } from './copy-loop.js';

const { cells, control } = workerData as { cells: SharedArrayBuffer; control: SharedArrayBuffer };
const shared = new Int32Array(control);
// Started before the meter is set up, it waits for the word to copy.
Atomics.wait(shared, GO, 0);
if (Atomics.load(shared, GO) === GO_COPY) {
  // The first byte is said at once: the run orders its meters by their first bytes.
  const result = copyLoop(new Float64Array(cells), shared, () => parentPort?.postMessage('first byte'));
  Atomics.store(shared, END, result.end);
  parentPort?.postMessage(result);
}
