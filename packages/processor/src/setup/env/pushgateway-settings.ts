import { ERROR_CODES, notAccepted, quote } from '../../base/errors.js';
import { addUrlCredentials, HEADER_RULE, type PairsRule, redactUrl } from '../../base/http.js';
import { GROUPING_LABELS_TEXT, groupingLabelProblem, resourceLabelOf } from '../../pushgateway/grouping-labels.js';
import {
  DEFAULT_PUSHGATEWAY_URL,
  PUSHGATEWAY_URL_TEXT,
  parsePushgatewayUrl,
} from '../../pushgateway/pushgateway-url.js';
import { type Env, readString, shown } from './env.js';
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

/**
 * `BACKUPSTATS_PUSHGATEWAY_GROUPING`: label names, each once; the values are any text, percent-encoded. Which
 * names may be grouping labels is checked after (grouping-labels.ts), to explain why a name is refused.
 */
const GROUPING_RULE: PairsRule = {
  key: /^(?!__)\S+$/,
  keyText: 'label names not starting with "__"',
  badKey: 'a key that cannot be a label name (empty, with a space, or starting with "__", which Prometheus reserves)',
  value: /^[\s\S]+$/,
  valueText: 'percent-encoded values',
  secret: false,
  unique: true,
  example: '"region=eu-west-1,tier=db"',
};

/**
 * Reads the `BACKUPSTATS_PUSHGATEWAY_*` variables; throws on the first bad one, never showing a secret.
 * `resourceAttributes` are the names of the attributes the resource gets from the environment, which the pushes
 * carry as labels of `target_info`.
 */
export function readPushgateway(env: Env, resourceAttributes: readonly string[] = []): PushgatewaySettings {
  const name = 'BACKUPSTATS_PUSHGATEWAY_URL';
  const text = readString(env, name) ?? DEFAULT_PUSHGATEWAY_URL;
  const parsed = parsePushgatewayUrl(text);
  if (parsed === undefined)
    throw notAccepted(ERROR_CODES.INVALID_ENV, name, quote(redactUrl(text)), PUSHGATEWAY_URL_TEXT);
  const headers: Record<string, string> = {};
  for (const [key, value] of Object.entries(readPairs(env, 'BACKUPSTATS_PUSHGATEWAY_HEADERS', HEADER_RULE) ?? {})) {
    headers[key.toLowerCase()] = value;
  }
  addUrlCredentials(ERROR_CODES.INVALID_ENV, headers, parsed.authorization, name, 'BACKUPSTATS_PUSHGATEWAY_HEADERS');
  const grouping = 'BACKUPSTATS_PUSHGATEWAY_GROUPING';
  const labels = readPairs(env, grouping, GROUPING_RULE) ?? {};
  const resourceLabels = resourceAttributes.map(resourceLabelOf);
  for (const label of Object.keys(labels)) {
    const problem = groupingLabelProblem(label, resourceLabels);
    if (problem !== undefined) {
      const accepted = `comma-separated name=value pairs with ${GROUPING_LABELS_TEXT}`;
      throw notAccepted(ERROR_CODES.INVALID_ENV, grouping, shown(env, grouping), accepted, problem);
    }
  }
  return { url: parsed.url, headers, labels };
}
