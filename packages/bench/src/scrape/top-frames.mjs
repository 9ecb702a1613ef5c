// Prints the functions with the most self time in a V8 CPU profile (node --cpu-prof), grouped by function and
// script: `node top-frames.mjs <file.cpuprofile> [count]`.
import { readFileSync } from 'node:fs';

const [file, count = '15'] = process.argv.slice(2);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const selfMicros = new Map();
for (let i = 0; i < profile.samples.length; i++) {
  const node = byId.get(profile.samples[i]);
  const { functionName, url, lineNumber } = node.callFrame;
  const script = url.replace(/^.*node_modules\//, '').replace(/^.*\/packages\//, 'packages/');
  const key = `${functionName || '(anonymous)'} ${script}${url === '' ? '' : `:${lineNumber + 1}`}`;
  selfMicros.set(key, (selfMicros.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0));
}
const total = [...selfMicros.values()].reduce((a, b) => a + b, 0);
const idle = selfMicros.get('(idle) ') ?? 0;
selfMicros.delete('(idle) ');
console.log(`busy ${((total - idle) / 1000).toFixed(0)} ms of ${(total / 1000).toFixed(0)} ms profiled`);
for (const [key, micros] of [...selfMicros].sort((a, b) => b[1] - a[1]).slice(0, Number(count))) {
  console.log(
    `${((micros / (total - idle)) * 100).toFixed(1).padStart(5)} %  ${(micros / 1000).toFixed(0).padStart(6)} ms  ${key}`,
  );
}
