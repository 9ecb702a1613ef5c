import { ERROR_CODES, notAccepted } from '../../base/errors.js';
import { checkTextfilePath, TEXTFILE_PATH_TEXT } from '../../textfile/textfile-path.js';
import { type Env, readString } from './env.js';

/** Where the textfile exporter writes. */
export interface TextfileSettings {
  /** Absolute; its directory exists and was writable at set-up. */
  readonly path: string;
}

/** The variable that names the file; needed with `OTEL_METRICS_EXPORTER=textfile`. */
export const TEXTFILE_PATH_VARIABLE = 'BACKUPSTATS_TEXTFILE_PATH';

/** Reads `BACKUPSTATS_TEXTFILE_PATH`; throws when it is unset or not a `.prom` file in a writable directory. */
export function readTextfile(env: Env): TextfileSettings {
  const text = readString(env, TEXTFILE_PATH_VARIABLE);
  if (text === undefined) {
    throw notAccepted(
      ERROR_CODES.INVALID_ENV,
      TEXTFILE_PATH_VARIABLE,
      'unset',
      TEXTFILE_PATH_TEXT,
      'OTEL_METRICS_EXPORTER names textfile',
    );
  }
  return { path: checkTextfilePath(ERROR_CODES.INVALID_ENV, TEXTFILE_PATH_VARIABLE, text) };
}
