// @ts-nocheck
// The worker thread's entry: tsx's loader, registered in the main thread, does not reach worker threads on
// Node 20, so the thread registers it before it loads the TypeScript.
import { register } from 'tsx/esm/api';

register();
await import('./workers-child.ts');
