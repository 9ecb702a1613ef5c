// @ts-nocheck
// `tsx --expose-gc src/pipeline/profile-pipeline.ts <mode> [chunk bytes] [MiB]`
// (from packages/bench, after `pnpm build`)
// Profiles one pipeline run of one mode with V8's sampling profiler (the inspector's Profiler, as
// `node --cpu-prof` does, but only around the timed run: no start-up, warm-up or digest in it), and prints the
// functions with the most self time, per chunk. Writes the profile to bench-results/ for Chrome DevTools.
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { fileURLToPath } from 'node:url';
import { isPipelineMode, PIPELINE_MODES } from './pipeline-modes.js';
import { expectedDigest, runOnce, sampleData, setUpMode } from './pipeline-run.js';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
}
interface Profile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

const [mode, chunkText = '4096', mibText = '256'] = process.argv.slice(2);
if (!isPipelineMode(mode))
  throw new Error(`profile-pipeline: mode ${JSON.stringify(mode)}; accepted: ${PIPELINE_MODES.join(', ')}`);
const chunk = Number(chunkText);
const total = Number(mibText) * 1024 * 1024;

const data = sampleData();
const setup = setUpMode(mode);
// Two unprofiled passes, so that the profiled one runs optimized code.
const warm = 64 * 1024 * 1024;
for (let pass = 0; pass < 2; pass++) await runOnce(setup, data, chunk, warm, expectedDigest(data, chunk, warm));
const expected = expectedDigest(data, chunk, total);

const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 50 });
await session.post('Profiler.start');
const timing = await runOnce(setup, data, chunk, total, expected);
const { profile } = (await session.post('Profiler.stop')) as { profile: Profile };
session.disconnect();

const dir = fileURLToPath(new URL('../../../../bench-results/', import.meta.url));
mkdirSync(dir, { recursive: true });
const file = `${dir}pipeline-${mode.replaceAll(' ', '-')}-${chunk}.cpuprofile`;
writeFileSync(file, JSON.stringify(profile));

// Self time per function (name, file, line): the sampled ticks that were in it, not in what it called.
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const selfUs = new Map<string, number>();
let sampledUs = 0;
for (let i = 0; i < profile.samples.length; i++) {
  const node = byId.get(profile.samples[i] as number) as ProfileNode;
  const delta = profile.timeDeltas[i] ?? 0;
  const { functionName, url, lineNumber } = node.callFrame;
  const key = `${functionName || '(anonymous)'} ${url.split('/').pop() ?? ''}:${lineNumber + 1}`;
  selfUs.set(key, (selfUs.get(key) ?? 0) + delta);
  sampledUs += delta;
}
const chunks = total / chunk;
const perChunk = (us: number): string => `${((us * 1000) / chunks).toFixed(0).padStart(5)} ns`;
console.log(
  `${mode}, ${chunk} B chunks, ${mibText} MiB: wall ${timing.wallMs.toFixed(0)} ms, CPU ${timing.cpuMs.toFixed(0)} ms, sampled ${perChunk(sampledUs)} per chunk`,
);
for (const [name, us] of [...selfUs].sort((a, b) => b[1] - a[1]).slice(0, 15)) {
  console.log(`${perChunk(us)} per chunk  ${((us / sampledUs) * 100).toFixed(1).padStart(5)} %  ${name}`);
}
console.log(`profile: ${file}`);
