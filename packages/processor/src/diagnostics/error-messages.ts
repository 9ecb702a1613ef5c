/**
 * The error for a value that is not accepted, in the one form every check uses:
 * `backupstats: <subject> is <shown> (<detail>); accepted: <accepted>`. `subject` names what the user set (`option
 * naming`, a variable's name); `shown` is the value as they wrote it, or a placeholder for a secret.
 */
export function notAccepted(subject: string, shown: string, accepted: string, detail?: string): TypeError {
  const why = detail === undefined ? '' : ` (${detail})`;
  return new TypeError(`backupstats: ${subject} is ${shorten(shown)}${why}; accepted: ${accepted}`);
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
 * The error for an argument that a function does not accept, in the form of {@link notAccepted}:
 * `backupstats: <function> <argument> is <value> (<detail>); accepted: <accepted>`.
 */
export function notAcceptedArgument(
  fn: string,
  argument: string,
  value: unknown,
  accepted: string,
  detail?: string,
): TypeError {
  return notAccepted(`${fn} ${argument}`, describeValue(value), accepted, detail);
}

/** Text quoted for a message. */
export function quote(text: string): string {
  return JSON.stringify(text);
}

/** `"a", "b" or "c"`. */
export function listChoices(choices: readonly string[]): string {
  const quoted = choices.map(quote);
  const last = quoted.pop();
  return quoted.length === 0 ? String(last) : `${quoted.join(', ')} or ${last}`;
}
