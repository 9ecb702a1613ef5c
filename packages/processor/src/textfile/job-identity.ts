import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { sampleLabels, sampleName } from './exposition-text.js';
import { readRegularFile } from './textfile-path.js';

/**
 * The resource attribute that tells two jobs' files apart: every series of a file carries it as the label
 * `service_name` (exporter-prometheus's resource constant labels). On node_exporter's scrape, `job` and `instance`
 * are node_exporter's own, the same for every file of the host; without it, two jobs' series would be the same
 * series, and node_exporter keeps only one of them.
 */
export const IDENTITY_ATTRIBUTES = /^service\.name$/;
/** The label {@link IDENTITY_ATTRIBUTES} becomes. */
export const IDENTITY_LABEL = 'service_name';

/** The service name of a resource, as exporter-prometheus writes it in the label. */
export function serviceNameOf(attributes: Readonly<Record<string, unknown>>): string {
  const value = attributes['service.name'];
  return value === undefined ? '' : String(value);
}

/**
 * Another `*.prom` file in the directory of `path` whose series carry the same `service_name` (read from its
 * `target_info`, which every file the textfile exporter writes has), or undefined. Files that cannot be read, and
 * what is no regular file, are passed over: node_exporter says so itself, with `node_textfile_scrape_error`.
 */
export function fileOfSameJob(path: string, serviceName: string): string | undefined {
  const dir = dirname(path);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return undefined;
  }
  for (const name of names.sort()) {
    const other = join(dir, name);
    if (!name.endsWith('.prom') || other === path) continue;
    // Only regular files: node_exporter reads nothing else, and a FIFO would block the read.
    const text = readRegularFile(other);
    if (text === undefined) continue;
    for (const line of text.split('\n')) {
      if (sampleName(line) === 'target_info' && sampleLabels(line)[IDENTITY_LABEL] === serviceName) return other;
    }
  }
  return undefined;
}

/** The sentence that refuses a second job of the same identity; `subject` names the path's option or variable. */
export function sameJobText(subject: string, path: string, other: string, serviceName: string): string {
  return (
    `backupstats: ${subject} is ${JSON.stringify(path)}, and ${other} in the same directory already holds the series of ` +
    `service_name ${JSON.stringify(serviceName)}: node_exporter would serve only one of two such series. Give each job ` +
    'its own OTEL_SERVICE_NAME (service.name), or remove that file if no job writes it any more'
  );
}
