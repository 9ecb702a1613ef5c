import type { RunResults } from './results.js';
import { checkTargets } from './targets.js';

/** The JSON document: the whole run, each result row repeated with the machine and date. */
export function renderJson(results: RunResults): unknown {
  const stamp = { machine: results.machine, date: results.date, quick: results.quick };
  const withStamp = <T extends object>(rows: readonly T[] | undefined): Array<T & typeof stamp> | undefined =>
    rows?.map((row) => ({ ...row, ...stamp }));
  return {
    ...stamp,
    targets: withStamp(checkTargets(results)),
    record: withStamp(results.record?.rows),
    recordsPerIteration: results.record?.recordsPerIteration,
    workerRecord: withStamp(results.workers?.records),
    workerFlush: withStamp(results.workers === undefined ? undefined : [results.workers.flush]),
    pipeline: withStamp(results.pipeline?.rows),
    flush: withStamp(results.flush?.rows),
    histogramCollect: withStamp(results.flush?.histograms),
    pipelineBudget: withStamp(results.pipeline?.budget),
    pipelineFresh: withStamp(results.pipeline?.fresh.rows),
    pipelineTree: withStamp(results.pipeline?.tree.rows),
    memory: withStamp(
      results.memory === undefined
        ? undefined
        : [results.memory.records, results.memory.scopes, results.memory.scopesWithHistograms],
    ),
    demo: withStamp(results.demo === undefined ? undefined : [results.demo]),
    demoWorkers: withStamp(results.demoWorkers === undefined ? undefined : [results.demoWorkers]),
    demoS3: withStamp(results.demoS3 === undefined ? undefined : [results.demoS3]),
    s3Request: withStamp(results.s3Request === undefined ? undefined : [results.s3Request]),
    httpRequest: withStamp(results.httpRequest?.rows),
    httpListeners: withStamp(results.httpRequest?.listeners),
    azureUpload: withStamp(results.azureUpload?.rows),
    pushgateway: withStamp(results.pushgateway?.rows),
    textfile: withStamp(results.textfile?.rows),
    timelineFlush: withStamp(results.timeline?.flush),
    reportWrite: withStamp(results.timeline === undefined ? undefined : [results.timeline.report]),
    scrape: withStamp(results.scrape?.rows),
    shellCopies: withStamp(results.shell?.copies),
    shell: withStamp(results.shell === undefined ? undefined : [{ ...results.shell, copies: undefined }]),
    scrapeRecordRate: withStamp(results.scrape === undefined ? undefined : [results.scrape.recordRate]),
    errors: results.errors,
  };
}
