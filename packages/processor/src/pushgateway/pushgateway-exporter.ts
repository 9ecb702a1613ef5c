import type { PushMetricExporter, ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { ERROR_CODES, withCode } from '../base/errors.js';
import { CUMULATIVE, type ExportResult, FAILED, type MetricsSerializer, SUCCESS } from '../base/export-result.js';
import { pushRefused } from '../diagnostics/messages.js';
import { type GroupingKey, groupingKeyOf, groupingPath } from './grouping-key.js';
import { resourceLabelOf } from './grouping-labels.js';
import { createPushClient } from './push-client.js';

/** A Pushgateway exporter's settings, checked. */
export interface PushgatewayConfig {
  /** The base URL, without credentials. */
  readonly url: URL;
  /** Sent with every push (basic authentication from the URL included). */
  readonly headers: Readonly<Record<string, string>>;
  /** The most one push may take, answer included. */
  readonly timeoutMillis: number;
  /** Undefined: the resource's `service.name`. */
  readonly job: string | undefined;
  /** Undefined: the resource's `service.instance.id`, else the host name. */
  readonly instance: string | undefined;
  readonly labels: GroupingKey['labels'];
}

/** The most of a refusal quoted in messages. */
const QUOTED_CHARS = 500;

/**
 * A PushMetricExporter that POSTs each export to the Pushgateway, in Prometheus's text format without timestamps
 * (the Pushgateway refuses them). POST, unlike PUT, replaces in the group only the metric names the push carries:
 * a metric with no data point is left out of the push, so a process that has had no successful run yet carries no
 * last-success gauge and leaves the previous process's one in place. Cumulative temporality only: a push replaces
 * the values before it.
 */
export function openPushgatewayExporter(config: PushgatewayConfig, serializer: MetricsSerializer): PushMetricExporter {
  const client = createPushClient(config.url, config.headers, config.timeoutMillis);
  const base = `${config.url.origin}${config.url.pathname.replace(/\/+$/, '')}`;
  const underWay = new Set<Promise<void>>();
  /**
   * The status of the refusal last reported through diag: pushes refused with the same status are reported once
   * until one is accepted (the answer's text is not compared: the Pushgateway lists its errors in no fixed order).
   */
  let lastRefusal: string | undefined;
  let closed = false;

  const push = async (metrics: ResourceMetrics): Promise<ExportResult> => {
    const path = groupingPath(groupingKeyOf(metrics.resource.attributes, config));
    const where = `${base}${path}`;
    const clash = resourceClash(config.labels, metrics.resource.attributes);
    if (clash !== undefined) {
      // The group's label would replace target_info's: nothing is pushed rather than a series renamed.
      return {
        code: FAILED,
        error: withCode(new Error(`nothing was pushed to ${where}: ${clash}`), ERROR_CODES.PUSH_FAILED),
      };
    }
    let answer: Awaited<ReturnType<typeof client.post>>;
    try {
      answer = await client.post(path, serializer.serialize(withSamplesOnly(metrics)));
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return {
        code: FAILED,
        error: withCode(new Error(`the push to ${where} failed: ${reason}`), ERROR_CODES.PUSH_FAILED),
      };
    }
    if (answer.status >= 200 && answer.status < 300) {
      lastRefusal = undefined;
      return { code: SUCCESS };
    }
    const status = `${answer.status} ${answer.statusText}`.trim();
    const quoted = shorten(answer.body.trim());
    if (answer.status >= 400 && answer.status < 500 && status !== lastRefusal) {
      lastRefusal = status;
      pushRefused(where, status, quoted);
    }
    return {
      code: FAILED,
      error: withCode(
        new Error(`the Pushgateway answered ${status} to the push to ${where}: ${quoted}`),
        ERROR_CODES.PUSH_FAILED,
      ),
    };
  };

  return {
    export(metrics, done) {
      if (closed) {
        done({
          code: FAILED,
          error: withCode(new Error('the Pushgateway exporter is shut down'), ERROR_CODES.SHUT_DOWN),
        });
        return;
      }
      const pushing = push(metrics).then(done);
      underWay.add(pushing);
      const settled = (): void => {
        underWay.delete(pushing);
      };
      pushing.then(settled, settled);
    },
    async forceFlush() {
      await Promise.all(underWay);
    },
    async shutdown() {
      closed = true;
      // Each push ends within the timeout: this waits for no longer.
      await Promise.all(underWay);
      client.close();
    },
    selectAggregationTemporality: () => CUMULATIVE,
  };
}

/**
 * The metrics without those that have no data point. exporter-prometheus would still write their HELP and TYPE
 * lines; the Pushgateway 1.5.1 ignores such an empty family, but a family present in a POST replaces the group's,
 * so leaving it out is what keeps the previous run's series whatever the server does with empty ones.
 */
function withSamplesOnly(metrics: ResourceMetrics): ResourceMetrics {
  const scopeMetrics = metrics.scopeMetrics
    .map((scope) => ({ ...scope, metrics: scope.metrics.filter((metric) => metric.dataPoints.length > 0) }))
    .filter((scope) => scope.metrics.length > 0);
  return { ...metrics, scopeMetrics };
}

/** Why a grouping label clashes with a label of target_info, from the resource the metrics carry; else undefined. */
function resourceClash(
  labels: Readonly<Record<string, string>>,
  attributes: Readonly<Record<string, unknown>>,
): string | undefined {
  const resourceLabels = Object.keys(attributes).map(resourceLabelOf);
  const name = Object.keys(labels).find((label) => resourceLabels.includes(label));
  return name === undefined
    ? undefined
    : `the grouping label ${JSON.stringify(name)} is also a label of target_info, from a resource attribute (give the grouping label another name)`;
}

function shorten(text: string): string {
  return text.length <= QUOTED_CHARS ? text : `${text.slice(0, QUOTED_CHARS)}…`;
}
