import type { PushMetricExporter, ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { removeStaleTemporaries, writeAtomically } from '../base/atomic-file.js';
import { ERROR_CODES, withCode } from '../base/errors.js';
import { CUMULATIVE, type ExportResult, FAILED, type MetricsSerializer, SUCCESS } from '../base/export-result.js';
import { textfileNotWritten, textfileRefused } from '../diagnostics/messages.js';
import { carriedFamilies, withCarried } from './carried-series.js';
import { type Family, sampleLabels } from './exposition-text.js';
import { fileOfSameJob, IDENTITY_LABEL, sameJobText, serviceNameOf } from './job-identity.js';
import { lockTextfile } from './textfile-lock.js';
import { readRegularFile, reasonOf } from './textfile-path.js';

/**
 * A PushMetricExporter that writes each export to the file at `path` (checked: a `.prom` file in a writable
 * directory), replacing it atomically. `subject` names the path's option or variable in messages.
 *
 * The file is also the job's state between runs: the one this process is about to replace is read when the
 * exporter is made, and its last success and last failure of each backup are written again with every export
 * until this process has newer ones (`carried-series.ts`). Cumulative temporality only: a file replaces the one
 * before it.
 */
export function openTextfileExporter(path: string, serializer: MetricsSerializer, subject: string): PushMetricExporter {
  return prepareTextfileExporter(path, subject)(serializer);
}

/**
 * {@link openTextfileExporter} in two steps: the file's state is taken now (its lock taken, the previous file read,
 * stale temporaries removed), and the exporter made once the serializer is at hand (createTextfileExporter loads
 * it). The exporter's shutdown releases the lock.
 *
 * @throws Error `BACKUPSTATS_TEXTFILE_TAKEN` when a running process writes the file (textfile-lock.ts).
 */
export function prepareTextfileExporter(
  path: string,
  subject: string,
): (serializer: MetricsSerializer) => PushMetricExporter {
  const unlock = lockTextfile(path, subject);
  const previous = readPrevious(path);
  removeStaleTemporaries(path);
  return (serializer) => textfileExporter(path, previous, serializer, subject, unlock);
}

/** Readable by everyone: node_exporter usually runs as a user of its own. */
const FILE_MODE = 0o644;

function textfileExporter(
  path: string,
  previous: string,
  serializer: MetricsSerializer,
  subject: string,
  unlock: () => void,
): PushMetricExporter {
  /** Decided at the first export, which brings the resource: the carried series, or why nothing is written. */
  let job: { carried: Family[]; refusal: string | undefined } | undefined;
  /** True while the failure of the last write has been reported: the next failures are not, until one succeeds. */
  let failureSaid = false;
  let writes: Promise<unknown> = Promise.resolve();
  let closed = false;

  // Stryker disable next-line StringLiteral: set by jobOf before any write reads it
  let fileInfo = '';
  const jobOf = (metrics: ResourceMetrics) => {
    if (job !== undefined) return job;
    const serviceName = serviceNameOf(metrics.resource.attributes);
    fileInfo = fileInfoText(path, serviceName);
    const other = fileOfSameJob(path, serviceName);
    const ours = (family: Family): Family => ({
      ...family,
      samples: family.samples.filter((line) => sampleLabels(line)[IDENTITY_LABEL] === serviceName),
    });
    job = {
      // A previous run under another service name is another job's: its series are not carried.
      carried: carriedFamilies(previous).map(ours),
      refusal: other === undefined ? undefined : sameJobText(subject, path, other, serviceName),
    };
    if (job.refusal !== undefined) textfileRefused(job.refusal);
    return job;
  };

  const write = async (metrics: ResourceMetrics): Promise<ExportResult> => {
    const { carried, refusal } = jobOf(metrics);
    if (refusal !== undefined) return { code: FAILED, error: withCode(new Error(refusal), ERROR_CODES.TEXTFILE_TAKEN) };
    const exposition = withCarried(serializer.serialize(metrics), carried);
    // Without metrics the serializer's text is one comment line, without its newline.
    const text = `${exposition}${exposition.endsWith('\n') ? '' : '\n'}${fileInfo}`;
    // The writes to one path go one at a time, in order: a slow write never lets an older export replace a newer
    // one. So once this one is done, so is every export asked for before.
    const writing = writeAtomically(path, text, { mode: FILE_MODE });
    writes = writing.catch(() => {});
    try {
      await writing;
    } catch (error) {
      const reason = reasonOf(error);
      if (!failureSaid) textfileNotWritten(path, reason);
      failureSaid = true;
      return {
        code: FAILED,
        error: withCode(new Error(`the write of ${path} failed: ${reason}`), ERROR_CODES.WRITE_FAILED),
      };
    }
    failureSaid = false;
    return { code: SUCCESS };
  };

  return {
    export(metrics, done) {
      if (closed)
        done({
          code: FAILED,
          error: withCode(new Error('the textfile exporter is shut down'), ERROR_CODES.SHUT_DOWN),
        });
      else void write(metrics).then(done);
    },
    // Every export's write is on the chain, in order: once it is done, so is every export asked for before.
    forceFlush: () => writes.then(() => {}),
    shutdown() {
      closed = true;
      // The last write done, another run of the job may write the file.
      return writes.then(unlock);
    },
    // Stryker disable next-line ArrowFunction: the exporter handed out (base/peer-exporter.ts) answers this itself
    selectAggregationTemporality: () => CUMULATIVE,
  };
}

/**
 * `backupstats_textfile_info{file, service_name} 1`: node_exporter's `node_textfile_mtime_seconds{file}` says when
 * each file was last written, and this series says which job's a file is, so that a rule can alert on the file of a
 * job that stopped writing it (the shipped rules' BackupTextfileNotWritten) and on no other file of the directory.
 */
function fileInfoText(path: string, serviceName: string): string {
  // The text format's escapes of a label value.
  const value = (text: string) => text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
  return [
    '# HELP backupstats_textfile_info The file node_exporter reads this from, and the job that writes it.',
    '# TYPE backupstats_textfile_info gauge',
    `backupstats_textfile_info{file="${value(path)}",${IDENTITY_LABEL}="${value(serviceName)}"} 1`,
    '',
  ].join('\n');
}

/**
 * The file this process is about to replace; empty when there is none yet, it cannot be read, or it is no regular
 * file (a FIFO, which the rename of the first write replaces).
 */
function readPrevious(path: string): string {
  // Stryker disable next-line StringLiteral: a text without a TYPE line of a last run's gauge carries nothing, as '' does
  return readRegularFile(path) ?? '';
}
