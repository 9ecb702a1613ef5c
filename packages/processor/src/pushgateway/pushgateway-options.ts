import { optionsOf } from '../base/arguments.js';
import { ERROR_CODES, notAccepted, notAcceptedArgument, quote } from '../base/errors.js';
import { addUrlCredentials, HEADER_RULE, redactUrl } from '../base/http.js';
import { integerText, isIntegerIn, TIMER_MILLIS } from '../base/integer-rule.js';
import { isObject } from '../base/values.js';
import { GROUPING_LABELS_TEXT, groupingLabelProblem } from './grouping-labels.js';
import type { PushgatewayConfig } from './pushgateway-exporter.js';
import { DEFAULT_PUSHGATEWAY_URL, PUSHGATEWAY_URL_TEXT, parsePushgatewayUrl } from './pushgateway-url.js';

/** Options of {@link createPushgatewayExporter}. */
export interface PushgatewayExporterOptions {
  /** The Pushgateway's base URL. Default `http://localhost:9091`; `user:password@` in it is sent as basic authentication. */
  readonly url?: string | undefined;
  /** The grouping key's `job`. Default: the resource's `service.name` (`OTEL_SERVICE_NAME`). */
  readonly job?: string | undefined;
  /** The grouping key's `instance`. Default: the resource's `service.instance.id`, else the host name. */
  readonly instance?: string | undefined;
  /**
   * More labels of the grouping key, after job and instance: Prometheus label names that no pushed series carries
   * (not `le`, `quantile`, the scope and run labels, `otel_*`, a resource attribute's), any text as values.
   */
  readonly grouping?: Readonly<Record<string, string>> | undefined;
  /** HTTP headers of every push, such as `authorization`. Their values are never shown in a message. */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /**
   * Milliseconds one push may take, answer included; default 10000. Keep it within the reader's
   * `exportTimeoutMillis`, so that no push outlives the export that started it.
   */
  readonly timeoutMillis?: number | undefined;
}

const FN = 'createPushgatewayExporter';
const KNOWN = ['url', 'job', 'instance', 'grouping', 'headers', 'timeoutMillis'];
const DEFAULT_TIMEOUT_MILLIS = 10_000;

/** The options checked, each refused with a TypeError naming it, what it is and what is accepted. */
export function checkPushgatewayOptions(given: PushgatewayExporterOptions | undefined): PushgatewayConfig {
  const options = optionsOf(FN, given, '{ url: "http://pushgateway:9091" }', KNOWN);
  const text = options.url ?? DEFAULT_PUSHGATEWAY_URL;
  const parsed = typeof text === 'string' ? parsePushgatewayUrl(text) : undefined;
  if (parsed === undefined) {
    const shown = typeof text === 'string' ? quote(redactUrl(text)) : `a value of type ${typeof text}`;
    throw notAccepted(ERROR_CODES.INVALID_OPTION, `${FN} option url`, shown, PUSHGATEWAY_URL_TEXT);
  }
  const headers = checkHeaders(options.headers);
  addUrlCredentials(ERROR_CODES.INVALID_OPTION, headers, parsed.authorization, `${FN} option url`, 'option headers');
  const timeoutMillis = options.timeoutMillis ?? DEFAULT_TIMEOUT_MILLIS;
  if (!isIntegerIn(timeoutMillis, TIMER_MILLIS)) {
    throw notAcceptedArgument(
      ERROR_CODES.INVALID_OPTION,
      FN,
      'option timeoutMillis',
      timeoutMillis,
      integerText(TIMER_MILLIS),
    );
  }
  return {
    url: parsed.url,
    headers,
    timeoutMillis,
    job: checkValue('job', options.job),
    instance: checkValue('instance', options.instance),
    labels: checkGrouping(options.grouping),
  };
}

function checkValue(name: string, value: unknown): string | undefined {
  if (value === undefined || (typeof value === 'string' && value !== '')) return value;
  throw notAcceptedArgument(ERROR_CODES.INVALID_OPTION, FN, `option ${name}`, value, 'a non-empty string');
}

function checkGrouping(grouping: unknown): Record<string, string> {
  const accepted = `an object of ${GROUPING_LABELS_TEXT}, to non-empty strings`;
  if (grouping === undefined) return {};
  if (!isObject(grouping))
    throw notAcceptedArgument(ERROR_CODES.INVALID_OPTION, FN, 'option grouping', grouping, accepted);
  for (const [name, value] of Object.entries(grouping)) {
    const problem = groupingLabelProblem(name);
    if (problem !== undefined) {
      throw notAccepted(
        ERROR_CODES.INVALID_OPTION,
        `${FN} option grouping`,
        'an object',
        accepted,
        `it has the label name ${quote(name)}: ${problem}`,
      );
    }
    // Empty refused, as BACKUPSTATS_PUSHGATEWAY_GROUPING refuses it: in Prometheus an empty label is no label, so
    // the group's series would lose it, and the key's path would need the Pushgateway's base64 escape for it.
    if (typeof value !== 'string' || value === '') {
      throw notAcceptedArgument(ERROR_CODES.INVALID_OPTION, FN, `option grouping.${name}`, value, 'a non-empty string');
    }
  }
  return { ...(grouping as Record<string, string>) };
}

/** Header names in lower case; values are never shown, as they may be secrets. */
function checkHeaders(headers: unknown): Record<string, string> {
  const accepted = `an object of ${HEADER_RULE.keyText} to values of printable ASCII`;
  if (headers === undefined) return {};
  if (!isObject(headers))
    throw notAcceptedArgument(ERROR_CODES.INVALID_OPTION, FN, 'option headers', headers, accepted);
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!HEADER_RULE.key.test(name) || typeof value !== 'string' || !HEADER_RULE.value.test(value)) {
      throw notAccepted(
        ERROR_CODES.INVALID_OPTION,
        `${FN} option headers`,
        '<redacted>',
        accepted,
        'one of them is not; the text is not shown because it may hold secrets',
      );
    }
    out[name.toLowerCase()] = value;
  }
  return out;
}
