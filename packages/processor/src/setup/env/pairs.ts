import { ERROR_CODES, notAccepted, quote } from '../../base/errors.js';
import type { PairsRule } from '../../base/http.js';
import { type Env, readString, shown } from './env.js';

/** Resource attribute keys: any non-empty text. */
export const ATTRIBUTE_RULE: PairsRule = {
  key: /^.+$/s,
  keyText: 'non-empty keys',
  badKey: 'an empty key',
  value: /^[\s\S]+$/,
  valueText: 'percent-encoded values',
  secret: false,
  example: '"deployment.environment=prod,host.name=db-1"',
};

/**
 * Parses OpenTelemetry's `key1=value1,key2=value2` list (W3C Baggage without properties, values percent-encoded),
 * as `OTEL_EXPORTER_OTLP_HEADERS` and `OTEL_RESOURCE_ATTRIBUTES` use it. Empty entries (a trailing comma) are
 * skipped; any other malformed entry throws, where the OpenTelemetry SDK would drop it silently. Undefined when
 * the variable is unset.
 */
export function readPairs(env: Env, name: string, rule: PairsRule): Record<string, string> | undefined {
  const value = readString(env, name);
  if (value === undefined) return undefined;
  const entries = value.split(',');
  const out: Record<string, string> = {};
  entries.forEach((entry, index) => {
    if (entry.trim() === '') return;
    const fail = (problem: string): TypeError => {
      const where = `entry ${index + 1} of ${entries.length}`;
      const detail = rule.secret
        ? `${where} ${problem}; the text is not shown because it may hold secrets`
        : `${where}, ${quote(entry.trim())}, ${problem}`;
      return notAccepted(
        ERROR_CODES.INVALID_ENV,
        name,
        rule.secret ? '<redacted>' : shown(env, name),
        `comma-separated key=value pairs with ${rule.keyText} and ${rule.valueText}, e.g. ${rule.example}`,
        detail,
      );
    };
    const equals = entry.indexOf('=');
    if (equals < 0) throw fail('has no "="');
    const key = decode(entry.slice(0, equals).trim());
    const text = decode(entry.slice(equals + 1).trim());
    if (key === undefined || text === undefined) throw fail('has a malformed percent-escape');
    if (!rule.key.test(key)) throw fail(`has ${rule.badKey}`);
    if (rule.unique === true && Object.hasOwn(out, key)) throw fail(`repeats the key ${quote(key)}`);
    if (text === '') throw fail('has an empty value');
    if (!rule.value.test(text)) throw fail('has a value with a character that is not accepted');
    out[key] = text;
  });
  return out;
}

function decode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}
