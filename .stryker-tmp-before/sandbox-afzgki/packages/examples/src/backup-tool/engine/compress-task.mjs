// @ts-nocheck
// The compression pool's worker entry: tsx's loader, registered in the main thread, does not reach worker threads
// on Node 20, so each registers it before loading the TypeScript task.
import { register } from 'tsx/esm/api';

register();
const task = await import('./compress-task.ts');
export default task.default;
