/**
 * The stable code every error the library throws carries in `error.code`, so that a program tells them apart
 * without parsing the message: the table of docs/errors.md, which test/support/error-codes.ts reads. Every place
 * that makes an error passes its code from this table, so a message can be reworded without changing its code.
 */
export const ERROR_CODES = Object.freeze({
  /** An option given in code (`createBackupStats`, `startBackupStats`, a meter's, `workerLink`, ...). */
  INVALID_OPTION: 'BACKUPSTATS_INVALID_OPTION',
  /** An argument of a function that is not an option: a Stats, a function, labels, a client, a link. */
  INVALID_ARGUMENT: 'BACKUPSTATS_INVALID_ARGUMENT',
  /** An environment variable that `startBackupStats` reads. */
  INVALID_ENV: 'BACKUPSTATS_INVALID_ENV',
  /** A stream a meter cannot meter: not of the kind it meters, or metered already. */
  WRONG_STREAM: 'BACKUPSTATS_WRONG_STREAM',
  /** `connectBackupStats`: every place of the link is taken by a live worker. */
  LINK_FULL: 'BACKUPSTATS_LINK_FULL',
  /** An optional peer dependency that the environment asks for is not installed. */
  MISSING_PEER: 'BACKUPSTATS_MISSING_PEER',
  /** The Prometheus endpoint could not listen on its host and port. */
  LISTEN_FAILED: 'BACKUPSTATS_LISTEN_FAILED',
  /** An export result's error: a push to the Pushgateway failed, was refused or timed out. */
  PUSH_FAILED: 'BACKUPSTATS_PUSH_FAILED',
  /** An export result's error: the exporter is shut down. */
  SHUT_DOWN: 'BACKUPSTATS_SHUT_DOWN',
  /** The textfile's directory already holds a file with the series of the same service name. */
  TEXTFILE_TAKEN: 'BACKUPSTATS_TEXTFILE_TAKEN',
  /** An export result's error: the textfile exporter could not write its file. */
  WRITE_FAILED: 'BACKUPSTATS_WRITE_FAILED',
  /** The runtime lacks what a function needs (`meterHttpRequests`: Node.js's `diagnostics_channel`). */
  UNSUPPORTED_RUNTIME: 'BACKUPSTATS_UNSUPPORTED_RUNTIME',
} as const);

/** One of the {@link ERROR_CODES}. */
export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

/**
 * An error of the library: `error` with its {@link ErrorCode} in `code`. Not enumerable, as `message` is not: an
 * error still equals another of its class and message (what test runners compare), and logs show it once.
 */
export function withCode<E extends Error>(error: E, code: ErrorCode): E & { readonly code: ErrorCode } {
  return Object.defineProperty(error, 'code', {
    value: code,
    enumerable: false,
    writable: false,
    configurable: true,
  }) as E & {
    readonly code: ErrorCode;
  };
}

/**
 * The error for a value that is not accepted, in the one form every check uses:
 * `backupstats: <subject> is <shown> (<detail>); accepted: <accepted>`, with `code` in `error.code`. `subject`
 * names what the user set (`option naming`, a variable's name); `shown` is the value as they wrote it, or a
 * placeholder for a secret.
 */
export function notAccepted(
  code: ErrorCode,
  subject: string,
  shown: string,
  accepted: string,
  detail?: string,
): TypeError & { readonly code: ErrorCode } {
  const why = detail === undefined ? '' : ` (${detail})`;
  return withCode(new TypeError(`backupstats: ${subject} is ${shorten(shown)}${why}; accepted: ${accepted}`), code);
}

/** The most characters of a value a message shows: a list of 5,000 boundaries made a 29 KB error. */
const SHOWN_CHARACTERS = 120;
/** The most items of an array a message shows. */
const SHOWN_ITEMS = 8;

function shorten(shown: string): string {
  if (shown.length <= SHOWN_CHARACTERS) return shown;
  return `${shown.slice(0, SHOWN_CHARACTERS)}… (${shown.length} characters)`;
}

/**
 * A value given in code, for a message: strings quoted, numbers as written, an array by its first items, an object
 * by its class (see {@link describeValue}), anything else by its type.
 */
export function showValue(value: unknown): string {
  if (typeof value === 'string') return quote(value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (value === null) return 'null';
  if (Array.isArray(value)) {
    const items = value.slice(0, SHOWN_ITEMS).map((item) => (Array.isArray(item) ? 'an array' : describeValue(item)));
    const more = value.length > SHOWN_ITEMS ? `, … ${value.length} items in all` : '';
    return `[${items.join(', ')}${more}]`;
  }
  if (typeof value === 'object') return describeValue(value);
  return `a value of type ${typeof value}`;
}

/**
 * An argument's value for a message: a primitive as {@link showValue} shows it (`undefined` as such), an object
 * by its class (`an instance of Uploader`), and one without a class of its own as `an object`.
 */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'function') return 'a function';
  if (typeof value !== 'object' || value === null) return showValue(value);
  const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
  if (typeof name !== 'string' || name === '' || name === 'Object') return 'an object';
  return `an instance of ${name}`;
}

/**
 * The error for an argument (or an option) that a function does not accept, in the form of {@link notAccepted}:
 * `backupstats: <function> <argument> is <value> (<detail>); accepted: <accepted>`.
 */
export function notAcceptedArgument(
  code: ErrorCode,
  fn: string,
  argument: string,
  value: unknown,
  accepted: string,
  detail?: string,
): TypeError & { readonly code: ErrorCode } {
  return notAccepted(code, `${fn} ${argument}`, describeValue(value), accepted, detail);
}

/** Text quoted for a message. */
export function quote(text: string): string {
  return JSON.stringify(text);
}

/** `"a", "b" or "c"`. */
export function listChoices(choices: readonly string[]): string {
  const quoted = choices.map(quote);
  const last = quoted.pop();
  // Stryker disable next-line ConditionalExpression: every list the library passes has two or more choices
  return quoted.length === 0 ? String(last) : `${quoted.join(', ')} or ${last}`;
}
