import type { TextfileResult } from '../../textfile/textfile-write.js';
import { fixed, kib, table } from '../format.js';

/** Section 9: one write of the textfile for node_exporter, next to the Pushgateway push of the same, per job. */
export function textfileSection(result: TextfileResult): string[] {
  return [
    '',
    '### 9. Writing the textfile for node_exporter (`backupstats/textfile`), next to the Pushgateway push, per job',
    '',
    table(
      [
        'scopes (with histograms)',
        'file',
        'write ms (median, min–max)',
        'Pushgateway body',
        'push ms (median, min–max)',
        'write / push',
        'exports',
        'pushed to',
      ],
      result.rows.map((r) => [
        String(r.scopes),
        `${r.fileBytes} B (${kib(r.fileBytes)})`,
        `${fixed(r.writeMs.median, 2)} (${fixed(r.writeMs.min, 2)}–${fixed(r.writeMs.max, 2)})`,
        `${r.pushBytes} B (${kib(r.pushBytes)})`,
        `${fixed(r.pushMs.median, 2)} (${fixed(r.pushMs.min, 2)}–${fixed(r.pushMs.max, 2)})`,
        fixed(r.writeMs.median / r.pushMs.median, 2),
        String(r.writeMs.samples),
        r.pushTarget,
      ]),
    ),
    '',
    'One collection of a job, exported alternately by the textfile exporter (serializing, a temporary file in the same ' +
      'directory, fsync, rename, the directory synced) and by the Pushgateway exporter (serializing, the POST and the ' +
      'answer). The file carries the same series as the body plus `service_name` on each and a `backupstats_textfile_info` line. ' +
      `The directory is a temporary one (${result.rows[0]?.directory ?? 'none'}): the fsync costs what that disk makes it cost.`,
  ];
}
