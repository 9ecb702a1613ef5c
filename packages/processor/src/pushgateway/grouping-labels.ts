import { quote } from '../base/errors.js';
import { KEY_LABELS, LABEL_NAME } from './grouping-key.js';

/**
 * The labels the pushed series carry, whatever the naming: the scope's, the runs' (`reason` in the Vitess naming,
 * `error.type` in OpenTelemetry's, written `error_type`), the self-metrics' `family`, the overflow series' mark.
 */
const SERIES_LABELS: readonly string[] = [
  'component',
  'implementation',
  'operation',
  'outcome',
  'reason',
  'error_type',
  'family',
  'otel_metric_overflow',
];

/** Labels Prometheus reads a meaning into. */
const PROMETHEUS_MEANINGS: Readonly<Record<string, string>> = {
  le: "a histogram bucket's bound",
  quantile: "a summary's quantile",
};
const PROMETHEUS_LABELS: readonly string[] = Object.keys(PROMETHEUS_MEANINGS);

/**
 * The resource attributes every OpenTelemetry SDK sets, which the serializer writes as labels of `target_info`
 * (each resource attribute becomes one, its name with every character outside [a-zA-Z0-9_] as `_`).
 */
const DEFAULT_RESOURCE_LABELS: readonly string[] = [
  'service_name',
  'telemetry_sdk_language',
  'telemetry_sdk_name',
  'telemetry_sdk_version',
];

/** What the grouping labels may be, for messages. */
export const GROUPING_LABELS_TEXT =
  `Prometheus label names ([a-zA-Z_][a-zA-Z0-9_]*) that no pushed series carries: not ${KEY_LABELS.join(' or ')} ` +
  `(set through OTEL_SERVICE_NAME and service.instance.id), not "__*", ${PROMETHEUS_LABELS.map(quote).join(' or ')}, ` +
  `"otel_*", ${SERIES_LABELS.map(quote).join(', ')} or a resource attribute's label (such as "service_name")`;

/** A resource attribute's name as the serializer writes it as a label. */
export const resourceLabelOf = (attribute: string): string => attribute.replace(/[^a-zA-Z0-9_]/g, '_');

/**
 * Why `name` cannot be a grouping label, or undefined when it can. The Pushgateway gives every series of a group
 * the group's labels, over those the series carry: a grouping label that a series carries renames it (and two
 * series made one make the whole push a 400), `le` on a histogram's buckets makes Prometheus refuse the whole
 * target (`label name "le" is not unique`). `resourceLabels` are those of the resource the pushes carry.
 */
export function groupingLabelProblem(name: string, resourceLabels: readonly string[] = []): string | undefined {
  if (name.startsWith('__')) return `${quote(name)} starts with "__", which Prometheus keeps for its own labels`;
  if (!LABEL_NAME.test(name)) return `${quote(name)} is not a Prometheus label name`;
  if (KEY_LABELS.includes(name)) return `${quote(name)} is already in every grouping key`;
  const meaning = PROMETHEUS_MEANINGS[name];
  if (meaning !== undefined && Object.hasOwn(PROMETHEUS_MEANINGS, name))
    return `Prometheus reads ${quote(name)} as ${meaning}`;
  if (name.startsWith('otel_')) return `${quote(name)} is an OpenTelemetry label of the pushed series`;
  if (SERIES_LABELS.includes(name)) return `the pushed series carry ${quote(name)}`;
  if (DEFAULT_RESOURCE_LABELS.includes(name) || resourceLabels.includes(name)) {
    return `${quote(name)} is a label of target_info, from a resource attribute`;
  }
  return undefined;
}
