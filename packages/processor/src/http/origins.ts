import { ERROR_CODES, notAccepted, showValue } from '../base/errors.js';

/** One origin to meter, in the forms the two clients of Node give it. */
export interface Target {
  /** `scheme://host[:port]` as `URL.origin` writes it (undici's `request.origin` is in this form). */
  readonly origin: string;
  /** The host as `http.ClientRequest` keeps it in `host`: no brackets around an IPv6 address. */
  readonly host: string;
  /** `http:` or `https:`. */
  readonly protocol: string;
  /** The port, the scheme's default written out. */
  readonly port: number;
}

const ACCEPTED =
  'an origin such as "https://storage.googleapis.com" or "http://127.0.0.1:10000" (http or https, host and port, no path), or an array of them';

/** The origins of the `origin` option, checked: a TypeError naming the value and what is accepted. */
export function targetsOf(fn: string, value: unknown): Target[] {
  const given = Array.isArray(value) ? (value as unknown[]) : [value];
  if (given.length === 0) {
    throw notAccepted(ERROR_CODES.INVALID_OPTION, `${fn} option "origin"`, '[]', ACCEPTED, 'no origin');
  }
  return given.map((one) => targetOf(fn, one));
}

function targetOf(fn: string, value: unknown): Target {
  const refuse = (detail: string) =>
    notAccepted(ERROR_CODES.INVALID_OPTION, `${fn} option "origin"`, showValue(value), ACCEPTED, detail);
  if (typeof value !== 'string') throw refuse('not a string');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw refuse('not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw refuse(`the scheme is ${url.protocol}`);
  if (url.pathname !== '/' || url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    throw refuse('it has more than scheme, host and port');
  }
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  return { origin: url.origin, host, protocol: url.protocol, port };
}

/**
 * The port a `http.ClientRequest` goes to, from its `Host` header (Node writes `host:port` unless the port is the
 * scheme's default); `undefined` when the header is not a string.
 */
export function portOfRequest(hostHeader: unknown, protocol: string): number | undefined {
  if (typeof hostHeader !== 'string') return undefined;
  const colon = hostHeader.lastIndexOf(':');
  if (colon === -1 || hostHeader.endsWith(']')) return protocol === 'https:' ? 443 : 80;
  const port = Number(hostHeader.slice(colon + 1));
  return Number.isInteger(port) ? port : undefined;
}
