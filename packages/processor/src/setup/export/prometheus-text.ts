import { type Attributes, type AttributeValue, diag } from '@opentelemetry/api';
import type { DataPoint, Histogram, MetricData, ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { TextBuffer } from './text-buffer.js';

// The text exposition (format 0.0.4) of a collection, byte for byte what exporter-prometheus' PrometheusSerializer
// writes with the options the Prometheus endpoint gives it (no prefix, no timestamps, target_info and the scope's
// labels on every series), at a fraction of its cost. That serializer escapes and sanitizes every label of every
// line again, with regular expressions and objects per line: on 2,000 series with histograms, 56,000 lines, it held
// the job's thread for most of a second and left as much garbage. Here each point's labels are written once and
// shared by its lines, each label name is sanitized once per process, and the text goes straight into a Buffer.

/** sdk-metrics' `DataPointType` (stable numeric values in 1.x, 2.x and 3.x). */
const HISTOGRAM = 0;
const GAUGE = 2;
const SUM = 3;

const INVALID_CHARACTERS = /[^a-z0-9_]/gi;
const MULTIPLE_UNDERSCORES = /_{2,}/g;
const NEEDS_ESCAPE = /[\\\n"]/;

/** Characters Prometheus does not allow in a name become `_`, runs of `_` one `_`. */
const sanitize = (name: string): string => name.replace(INVALID_CHARACTERS, '_').replace(MULTIPLE_UNDERSCORES, '_');

/** Backslash and newline escaped, as in HELP and UNIT lines and names. */
const escapeText = (text: string): string => text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');

/** A label value: strings as they are, anything else as JSON, `undefined` empty; `\`, newline and `"` escaped. */
function labelValue(value: AttributeValue | undefined): string {
  const text = value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  return NEEDS_ESCAPE.test(text) ? escapeText(text).replace(/"/g, '\\"') : text;
}

/** Sanitized label names by attribute key: a process has few keys, and a string key never changes. */
const labelNames = new Map<string, string>();
const LABEL_NAMES_KEPT = 10_000;

function labelName(key: string): string {
  let name = labelNames.get(key);
  if (name === undefined) {
    name = sanitize(key);
    if (labelNames.size >= LABEL_NAMES_KEPT) labelNames.clear();
    labelNames.set(key, name);
  }
  return name;
}

/** `name="value"` pairs of `attributes`, comma-separated, in their own order; empty for no attribute. */
function labelsOf(attributes: Attributes): string {
  let text = '';
  for (const key of Object.keys(attributes)) {
    text += `${text === '' ? '' : ','}${labelName(key)}="${labelValue(attributes[key])}"`;
  }
  return text;
}

const COMMA = 0x2c;
const QUOTE = 0x22;
const NEWLINE = 0x0a;

/** Writes a point's labels, then its scope's, straight into `out` (no string built per point). */
function writeLabels(out: TextBuffer, attributes: Attributes, scopeLabels: string): void {
  for (const key of Object.keys(attributes)) {
    out.ascii(labelName(key));
    out.ascii('="');
    out.text(labelValue(attributes[key]));
    out.char(QUOTE);
    out.char(COMMA);
  }
  out.text(scopeLabels);
}

/** `le` label values by boundary: a few dozen numbers, each written as `String` writes it. */
const boundTexts = new Map<number, string>();

function boundText(bound: number): string {
  let text = boundTexts.get(bound);
  if (text === undefined) {
    text = String(bound);
    if (boundTexts.size >= LABEL_NAMES_KEPT) boundTexts.clear();
    boundTexts.set(bound, text);
  }
  return text;
}

/** The size of the previous exposition, so that the next one's buffer rarely grows. */
let lastLength = 0;

/** Serializes a collection as the Prometheus text exposition, UTF-8. */
export function serializePrometheus(resourceMetrics: ResourceMetrics): Buffer {
  const out = new TextBuffer(lastLength + (lastLength >> 4));
  const target = labelsOf(resourceMetrics.resource.attributes);
  out.text(
    `# HELP target_info Target metadata\n# TYPE target_info gauge\ntarget_info${target === '' ? '' : `{${target}}`} 1\n`,
  );
  const headerLength = out.length;
  for (const { scope, metrics } of resourceMetrics.scopeMetrics) {
    let scopeLabels = `otel_scope_name="${labelValue(scope.name)}"`;
    if (scope.schemaUrl) scopeLabels += `,otel_scope_schema_url="${labelValue(scope.schemaUrl)}"`;
    if (scope.version) scopeLabels += `,otel_scope_version="${labelValue(scope.version)}"`;
    for (const metric of metrics) family(metric, scopeLabels, out);
  }
  if (out.length === headerLength) out.text('# no registered metrics');
  lastLength = out.length;
  return out.done();
}

/**
 * Writes one metric: its HELP, UNIT and TYPE lines, then its samples; nothing when its name sanitizes to nothing.
 */
function family(metric: MetricData, scopeLabels: string, out: TextBuffer): void {
  const { descriptor, dataPointType } = metric;
  let name = sanitize(escapeText(descriptor.name));
  if (name === '') {
    diag.error(`Normalization for metric "${descriptor.name}" resulted in empty name`);
    return;
  }
  if (name === '_') {
    diag.error(`Normalization for metric "${descriptor.name}" resulted in an invalid name: "_"`);
    return;
  }
  if (name[0] !== undefined && name[0] >= '0' && name[0] <= '9') name = `_${name}`;
  let type = 'untyped';
  if (dataPointType === SUM) {
    type = metric.isMonotonic ? 'counter' : 'gauge';
    if (metric.isMonotonic && !name.endsWith('_total')) name = `${name}_total`;
  } else if (dataPointType === GAUGE) type = 'gauge';
  else if (dataPointType === HISTOGRAM) type = 'histogram';
  out.text(`# HELP ${name} ${escapeText(descriptor.description || 'description missing')}\n`);
  if (descriptor.unit) out.text(`# UNIT ${name} ${escapeText(descriptor.unit)}\n`);
  out.text(`# TYPE ${name} ${type}\n`);
  if (dataPointType === SUM || dataPointType === GAUGE) {
    for (const point of metric.dataPoints) {
      out.ascii(name);
      out.char(0x7b);
      writeLabels(out, point.attributes, scopeLabels);
      out.ascii('} ');
      out.number(point.value);
      out.char(NEWLINE);
    }
  } else if (dataPointType === HISTOGRAM) {
    for (const point of metric.dataPoints) histogramLines(out, name, point, scopeLabels);
  } else {
    diag.error(`Unrecognizable DataPointType: ${dataPointType} for metric "${name}"`);
  }
}

/**
 * The lines of one histogram point: `_count` and `_sum` when present, then the cumulative `_bucket`s. The labels are
 * written once and their bytes copied to the point's other lines; so is the start of its bucket lines.
 */
function histogramLines(out: TextBuffer, name: string, point: DataPoint<Histogram>, scopeLabels: string): void {
  let labelsStart = -1;
  let labelsEnd = -1;
  /** Writes `name{labels` (the labels copied after their first time). */
  const start = (suffix: string): void => {
    out.ascii(name);
    out.ascii(suffix);
    if (labelsStart >= 0) out.again(labelsStart, labelsEnd);
    else {
      labelsStart = out.length;
      writeLabels(out, point.attributes, scopeLabels);
      labelsEnd = out.length;
    }
  };
  const { count, sum, buckets } = point.value;
  // The exporter writes _count and _sum only when present (a histogram without sum has none).
  if (count != null) {
    start('_count{');
    out.ascii('} ');
    out.number(count);
    out.char(NEWLINE);
  }
  if (sum != null) {
    start('_sum{');
    out.ascii('} ');
    out.number(sum);
    out.char(NEWLINE);
  }
  const { boundaries, counts } = buckets;
  let prefixStart = -1;
  let prefixEnd = -1;
  let cumulative = 0;
  let infinityGiven = false;
  for (let j = 0; j < counts.length; j++) {
    cumulative += counts[j] as number;
    const bound = boundaries[j];
    // Boundaries that end with Infinity already name the last bucket.
    if (bound === undefined && infinityGiven) break;
    if (bound === Number.POSITIVE_INFINITY) infinityGiven = true;
    if (prefixStart >= 0) out.again(prefixStart, prefixEnd);
    else {
      prefixStart = out.length;
      start('_bucket{');
      out.ascii(',le="');
      prefixEnd = out.length;
    }
    out.ascii(bound === undefined || bound === Number.POSITIVE_INFINITY ? '+Inf' : boundText(bound));
    out.ascii('"} ');
    out.number(cumulative);
    out.char(NEWLINE);
  }
}
