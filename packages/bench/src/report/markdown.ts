import { table } from './format.js';
import { machineLabel } from './machine.js';
import type { RunResults } from './results.js';
import { demoS3Section, demoSection, demoWorkersSection } from './sections/demo.js';
import { flushSection } from './sections/flush.js';
import { memorySection } from './sections/memory.js';
import { pipelineSection } from './sections/pipeline.js';
import { pushgatewaySection } from './sections/pushgateway.js';
import { recordSection } from './sections/record.js';
import { s3RequestSection } from './sections/s3-request.js';
import { scrapeSection } from './sections/scrape.js';
import { shellSection } from './sections/shell.js';
import { storageSection } from './sections/storage.js';
import { textfileSection } from './sections/textfile.js';
import { timelineSection } from './sections/timeline.js';
import { workersSection } from './sections/workers.js';
import { checkTargets } from './targets.js';

/** Renders the run as Markdown: the targets first, then one section per benchmark, then what crashed. */
export function renderMarkdown(results: RunResults): string {
  const machine = machineLabel(results.machine);
  const date = results.date;
  const out: string[] = [];
  out.push(
    `Machine: ${machine}. Date: ${date}.${results.quick ? ' **Quick mode: sizes too small for the figures to mean anything.**' : ''}`,
  );
  out.push('');
  out.push('### Targets');
  out.push('');
  out.push(
    table(
      ['benchmark', 'target', 'measured (median)', 'met', 'machine', 'date'],
      checkTargets(results).map((c) => [
        c.benchmark,
        c.target,
        c.measured,
        c.met === undefined ? '–' : c.met ? 'yes' : '**no**',
        machine,
        date,
      ]),
    ),
  );

  if (results.record !== undefined) out.push(...recordSection(results.record));
  if (results.workers !== undefined) out.push(...workersSection(results.workers));
  if (results.pipeline !== undefined) out.push(...pipelineSection(results.pipeline));
  if (results.flush !== undefined) out.push(...flushSection(results.flush));
  if (results.memory !== undefined) out.push(...memorySection(results.memory));
  if (results.demo !== undefined) out.push(...demoSection(results.demo));
  if (results.demoWorkers !== undefined) out.push(...demoWorkersSection(results.demoWorkers));
  if (results.demoS3 !== undefined) out.push(...demoS3Section(results.demoS3));
  if (results.s3Request !== undefined) out.push(...s3RequestSection(results.s3Request));
  if (results.httpRequest !== undefined || results.azureUpload !== undefined)
    out.push(...storageSection(results.httpRequest, results.azureUpload));
  if (results.pushgateway !== undefined) out.push(...pushgatewaySection(results.pushgateway));
  if (results.textfile !== undefined) out.push(...textfileSection(results.textfile));
  if (results.timeline !== undefined) out.push(...timelineSection(results.timeline));
  if (results.scrape !== undefined) out.push(...scrapeSection(results.scrape));
  if (results.shell !== undefined) out.push(...shellSection(results.shell));

  const errors = Object.entries(results.errors);
  if (errors.length > 0) {
    out.push('', '### Crashed', '');
    for (const [name, message] of errors) out.push(`- ${name}: ${message}`);
  }
  return `${out.join('\n')}\n`;
}
