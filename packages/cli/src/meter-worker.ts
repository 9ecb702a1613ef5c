// The worker thread of `backupstats meter`: the copy itself (copy-loop.ts).
import { parentPort, workerData } from 'node:worker_threads';
import { copyLoop, END } from './copy-loop.js';

const { cells, control } = workerData as { cells: SharedArrayBuffer; control: SharedArrayBuffer };
const shared = new Int32Array(control);
// The first byte is said at once: the run orders its meters by their first bytes.
const result = copyLoop(new Float64Array(cells), shared, () => parentPort?.postMessage('first byte'));
Atomics.store(shared, END, result.end);
parentPort?.postMessage(result);
