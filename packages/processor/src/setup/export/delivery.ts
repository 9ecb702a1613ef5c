import type { PushMetricExporter } from '@opentelemetry/sdk-metrics';
import { FAILED, SUCCESS } from '../../base/export-result.js';

type ExportCallback = Parameters<PushMetricExporter['export']>[1];

/** Follows whether a push exporter delivered its exports, so that a shutdown can report what it could not deliver. */
export interface DeliveryWatch {
  /** The exporter to give the reader: the watched one, seen through. */
  readonly exporter: PushMetricExporter;
  /**
   * Undefined when the last export was delivered and none is under way; else a sentence for diag saying what did
   * not reach the backend. `deadlineMillis` is the shutdown's deadline, named when an export was still under way.
   */
  undelivered(deadlineMillis: number): string | undefined;
}

/**
 * Wraps `exporter` to follow its exports. `label` names it in messages, e.g. `OTLP exporter (grpc,
 * http://collector:4317/)`; it must hold no secret.
 */
export function watchDelivery(exporter: PushMetricExporter, label: string): DeliveryWatch {
  let underWay = 0;
  let deliveredAt: number | undefined;
  let failure: string | undefined;

  const settle: (result: Parameters<ExportCallback>[0]) => void = (result) => {
    underWay--;
    if (result.code === SUCCESS) {
      deliveredAt = Date.now();
      failure = undefined;
    } else {
      failure = (result.error?.message ?? 'no reason given').slice(0, 300);
    }
  };

  const watched: PushMetricExporter = {
    export(metrics, done) {
      underWay++;
      try {
        exporter.export(metrics, (result) => {
          settle(result);
          done(result);
        });
      } catch (error) {
        settle({ code: FAILED, error: error instanceof Error ? error : new Error(String(error)) });
        throw error;
      }
    },
    forceFlush: () => exporter.forceFlush(),
    shutdown: () => exporter.shutdown(),
  };
  // The reader asks the exporter for its temporality and aggregation, when it has them.
  const { selectAggregationTemporality, selectAggregation } = exporter;
  if (selectAggregationTemporality !== undefined)
    watched.selectAggregationTemporality = selectAggregationTemporality.bind(exporter);
  if (selectAggregation !== undefined) watched.selectAggregation = selectAggregation.bind(exporter);

  return {
    exporter: watched,
    undelivered(deadlineMillis) {
      let why: string;
      if (underWay > 0)
        why = `it was still under way when the shutdown's deadline of ${deadlineMillis} ms (OTEL_METRIC_EXPORT_TIMEOUT) passed`;
      else if (failure !== undefined) why = `it failed: ${failure}`;
      else return undefined;
      const since =
        deliveredAt === undefined
          ? 'since the start (no export was ever delivered)'
          : `since the last delivered export, at ${new Date(deliveredAt).toISOString()}`;
      return `backupstats: the ${label} did not deliver the final export (${why}); what was recorded ${since} did not reach the backend`;
    },
  };
}
