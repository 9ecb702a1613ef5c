/** Where the Pushgateway listens when nothing says otherwise (its own default port). */
export const DEFAULT_PUSHGATEWAY_URL = 'http://localhost:9091';

/** How messages word what {@link parsePushgatewayUrl} accepts. */
export const PUSHGATEWAY_URL_TEXT =
  'an http:// or https:// URL without query or fragment, and without "." or ".." in its path, e.g. "http://pushgateway:9091" (a path is kept as a prefix; user:password@ becomes basic authentication)';

/**
 * A "." or ".." segment (percent-encoded too) in the path as written: URL parsing resolves them, so
 * `/a/../../admin` would quietly become the prefix `/admin`.
 */
const DOT_SEGMENT = /\/(?:\.|%2e){1,2}(?:\/|$)/i;

/** A Pushgateway's base URL, with the credentials it held moved into an Authorization header value. */
export interface PushgatewayUrl {
  /** Without user information: Node's HTTP client would send it as is, and messages show this one. */
  readonly url: URL;
  /** `Basic …` from the URL's user:password, when it had any. */
  readonly authorization: string | undefined;
}

/**
 * Parses a Pushgateway base URL; undefined when it is not one: not http(s), no host, with a query or fragment
 * (the grouping key is appended to the path, so a query would end up in the middle of it), or with a dot segment.
 */
export function parsePushgatewayUrl(text: string): PushgatewayUrl | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (url.host === '' || url.search !== '' || url.hash !== '' || text.includes('?') || text.includes('#')) {
    return undefined;
  }
  if (DOT_SEGMENT.test(text.replace(/^[a-z][a-z\d+.-]*:\/\/[^/]*/i, ''))) return undefined;
  let authorization: string | undefined;
  if (url.username !== '' || url.password !== '') {
    const user = decode(url.username);
    const password = decode(url.password);
    if (user === undefined || password === undefined) return undefined;
    authorization = `Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}`;
    url.username = '';
    url.password = '';
  }
  return { url, authorization };
}

function decode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}
