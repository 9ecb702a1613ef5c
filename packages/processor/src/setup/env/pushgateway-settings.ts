import { notAccepted, quote } from '../../base/errors.js';
import { addUrlCredentials, HEADER_RULE, type PairsRule, redactUrl } from '../../base/http.js';
import { KEY_LABELS, LABEL_NAME, LABEL_NAME_TEXT } from '../../pushgateway/grouping-key.js';
import {
  DEFAULT_PUSHGATEWAY_URL,
  PUSHGATEWAY_URL_TEXT,
  parsePushgatewayUrl,
} from '../../pushgateway/pushgateway-url.js';
import { type Env, readString } from './env.js';
import { readPairs } from './pairs.js';

/** Where and how the Pushgateway exporter pushes; job and instance come from the resource. */
export interface PushgatewaySettings {
  /** Without credentials. */
  readonly url: URL;
  /** Lower-case names; basic authentication from the URL included. */
  readonly headers: Readonly<Record<string, string>>;
  /** More labels of the grouping key. */
  readonly labels: Readonly<Record<string, string>>;
}

/** `BACKUPSTATS_PUSHGATEWAY_GROUPING`: label names; the values are any text, percent-encoded. */
const GROUPING_RULE: PairsRule = {
  key: new RegExp(`(?!^(?:${KEY_LABELS.join('|')})$)${LABEL_NAME.source}`),
  keyText: `${LABEL_NAME_TEXT} other than ${KEY_LABELS.join(' and ')} (set through OTEL_SERVICE_NAME and service.instance.id)`,
  value: /^[\s\S]+$/,
  valueText: 'percent-encoded values',
  secret: false,
  example: '"region=eu-west-1,tier=db"',
};

/** Reads the `BACKUPSTATS_PUSHGATEWAY_*` variables; throws on the first bad one, never showing a secret. */
export function readPushgateway(env: Env): PushgatewaySettings {
  const name = 'BACKUPSTATS_PUSHGATEWAY_URL';
  const text = readString(env, name) ?? DEFAULT_PUSHGATEWAY_URL;
  const parsed = parsePushgatewayUrl(text);
  if (parsed === undefined) throw notAccepted(name, quote(redactUrl(text)), PUSHGATEWAY_URL_TEXT);
  const headers: Record<string, string> = {};
  for (const [key, value] of Object.entries(readPairs(env, 'BACKUPSTATS_PUSHGATEWAY_HEADERS', HEADER_RULE) ?? {})) {
    headers[key.toLowerCase()] = value;
  }
  addUrlCredentials(headers, parsed.authorization, 'BACKUPSTATS_PUSHGATEWAY_URL and BACKUPSTATS_PUSHGATEWAY_HEADERS');
  const labels = readPairs(env, 'BACKUPSTATS_PUSHGATEWAY_GROUPING', GROUPING_RULE) ?? {};
  return { url: parsed.url, headers, labels };
}
