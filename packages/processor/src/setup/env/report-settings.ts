import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ERROR_CODES, notAccepted } from '../../base/errors.js';
import { type Env, readString, shown } from './env.js';

const NAME = 'BACKUPSTATS_REPORT_PATH';
const ACCEPTED = 'the path of an HTML file to write at shutdown, in a folder that exists (not a folder itself)';

/**
 * `BACKUPSTATS_REPORT_PATH`: where the shutdown writes the report page (`backupstats/report`), absolute; undefined
 * when unset. Checked at set-up, so that a job learns of a bad path when it starts, not after its backup.
 */
export function readReportPath(env: Env): string | undefined {
  const text = readString(env, NAME);
  if (text === undefined) return undefined;
  const path = resolve(text);
  const folder = statSync(dirname(path), { throwIfNoEntry: false, bigint: true });
  if (folder === undefined || !folder.isDirectory()) {
    throw notAccepted(ERROR_CODES.INVALID_ENV, NAME, shown(env, NAME), ACCEPTED, `${dirname(path)} is not a folder`);
  }
  if (statSync(path, { throwIfNoEntry: false, bigint: true })?.isDirectory() === true) {
    throw notAccepted(ERROR_CODES.INVALID_ENV, NAME, shown(env, NAME), ACCEPTED, 'it is a folder');
  }
  return path;
}
