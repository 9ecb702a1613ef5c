// `pnpm bench [--quick] [--only=record,workers,pipeline,flush,memory,demo,demo-workers,demo-s3,s3-request,http-request,azure-upload,pushgateway,textfile,timeline,scrape,shell] [--pipeline-mib=N] [--rounds=N] [--cli-baseline=PATH]`
// Runs the benchmarks one after the other, prints the Markdown tables on stdout (progress goes to stderr), and
// writes them with the whole run as JSON to bench-results/<date>.md and .json (git-ignored): the JSON is the
// record of a run; docs/performance.md is written by hand from it.
// Exits non-zero only when a benchmark crashed: timings never fail a run.
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type BENCHMARKS, type BenchConfig, parseArgs } from './config.js';
import { demoData, runDemo } from './demo/demo.js';
import { runFlushCost } from './flush/flush-cost.js';
import { runMemory } from './memory/memory.js';
import { runPipeline } from './pipeline/pipeline.js';
import { runPushgatewayPush } from './pushgateway/pushgateway-push.js';
import { runRecordCost } from './record/record-cost.js';
import { renderJson } from './report/json.js';
import { describeMachine } from './report/machine.js';
import { renderMarkdown } from './report/markdown.js';
import type { RunResults } from './report/results.js';
import { runS3Request } from './s3/s3-request.js';
import { runScrape } from './scrape/scrape.js';
import { runShellPipeline } from './shell/shell-pipeline.js';
import { runAzureUpload } from './storage/azure-upload.js';
import { runHttpRequest } from './storage/http-request.js';
import { runTextfileWrite } from './textfile/textfile-write.js';
import { runTimelineCost } from './timeline/timeline-cost.js';
import { runWorkers } from './workers/workers.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

const log = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

async function main(config: BenchConfig): Promise<RunResults> {
  const date = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const selected = (name: string): boolean => config.only.length === 0 || config.only.includes(name);
  const errors: Record<string, string> = {};
  const run = async <T>(name: (typeof BENCHMARKS)[number], bench: () => Promise<T>): Promise<T | undefined> => {
    if (!selected(name)) return undefined;
    log(`bench: ${name}…`);
    const start = performance.now();
    try {
      const result = await bench();
      log(`bench: ${name} done in ${((performance.now() - start) / 1000).toFixed(1)} s`);
      return result;
    } catch (error) {
      const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
      log(`bench: ${name} CRASHED: ${message}`);
      errors[name] = error instanceof Error ? error.message : String(error);
      return undefined;
    }
  };
  const record = await run('record', () => runRecordCost(config));
  const workers = await run('workers', () => runWorkers(config));
  const pipeline = await run('pipeline', () => runPipeline(config, log));
  const flush = await run('flush', () => runFlushCost(config));
  const memory = await run('memory', () => runMemory(config));
  // The three demo benchmarks back up one generated data set, made by the first of them that runs.
  const data = demoData(config);
  const demo = await run('demo', () => runDemo(config, log, data));
  const demoWorkers = await run('demo-workers', () => runDemo(config, log, data, 'folder', ['--workers', '2']));
  const demoS3 = await run('demo-s3', () => runDemo(config, log, data, 's3'));
  await data.remove();
  const s3Request = await run('s3-request', () => runS3Request(config));
  const httpRequest = await run('http-request', () => runHttpRequest(config));
  const azureUpload = await run('azure-upload', () => runAzureUpload(config));
  const pushgateway = await run('pushgateway', () => runPushgatewayPush(config));
  const textfile = await run('textfile', () => runTextfileWrite(config));
  const timeline = await run('timeline', () => runTimelineCost(config));
  const scrape = await run('scrape', () => runScrape(config));
  const shell = await run('shell', () => runShellPipeline(config));
  return {
    machine: describeMachine(),
    date,
    quick: config.quick,
    record,
    workers,
    pipeline,
    flush,
    memory,
    demo,
    demoWorkers,
    demoS3,
    s3Request,
    httpRequest,
    azureUpload,
    pushgateway,
    textfile,
    timeline,
    scrape,
    shell,
    errors,
  };
}

const config = parseArgs(process.argv.slice(2));
const results = await main(config);
const markdown = renderMarkdown(results);
process.stdout.write(markdown);

mkdirSync(`${ROOT}bench-results`, { recursive: true });
const base = `${ROOT}bench-results/${results.date.replaceAll(':', '-')}${config.quick ? '-quick' : ''}`;
writeFileSync(`${base}.json`, `${JSON.stringify(renderJson(results), null, 2)}\n`);
writeFileSync(`${base}.md`, markdown);
log(`bench: wrote ${base}.json and ${base}.md`);

if (Object.keys(results.errors).length > 0) {
  log(`bench: ${Object.keys(results.errors).join(', ')} crashed`);
  process.exitCode = 1;
}
