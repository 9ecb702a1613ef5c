import type { PushMetricExporter, ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { CUMULATIVE, FAILED } from './export-result.js';
import { isMissing, missingPeerError, sdkLineOf } from './missing-peer.js';

/**
 * A PushMetricExporter that is `loading`'s once the optional peer `peer` it needs has loaded, for the entry points
 * (`backupstats/pushgateway`, `backupstats/textfile`) whose factory must stay synchronous and must load without
 * the peer: a static import of a missing package would fail the import of the entry point itself, with Node's
 * bare `Cannot find package`.
 *
 * Until then exports wait for it. If the peer is not installed, every export fails with `BACKUPSTATS_MISSING_PEER`
 * (named after `askedBy`, with the `npm install` line of the SDK line of the exported resource), and `say` is given
 * its message at the first export. Cumulative temporality, as both exporters.
 */
export function exporterAfterPeer(
  loading: Promise<PushMetricExporter>,
  peer: string,
  askedBy: string,
  say: (sentence: string) => void,
): PushMetricExporter {
  let loaded: PushMetricExporter | undefined;
  let failure: unknown;
  let said = false;
  // Never rejects: what failed is kept for the exports, and nobody is left with an unhandled rejection.
  const ready = loading.then(
    (exporter) => {
      loaded = exporter;
    },
    (error: unknown) => {
      failure = error;
    },
  );

  const failureFor = (metrics: ResourceMetrics): Error => {
    if (!isMissing(failure, peer)) return failure instanceof Error ? failure : new Error(String(failure));
    // The resource tells the installed SDK's version, hence the line of the exporter to install.
    const version = metrics.resource.attributes['telemetry.sdk.version'];
    const error = missingPeerError(
      peer,
      askedBy,
      sdkLineOf(typeof version === 'string' ? version : undefined),
      failure,
    );
    if (!said) say(error.message);
    said = true;
    return error;
  };

  const exportTo: PushMetricExporter['export'] = (metrics, done) => {
    if (loaded !== undefined) loaded.export(metrics, done);
    else done({ code: FAILED, error: failureFor(metrics) });
  };

  return {
    export(metrics, done) {
      // Once loaded, straight through: exports keep their order.
      if (loaded !== undefined) loaded.export(metrics, done);
      else void ready.then(() => exportTo(metrics, done));
    },
    async forceFlush() {
      await ready;
      await loaded?.forceFlush();
    },
    async shutdown() {
      await ready;
      await loaded?.shutdown();
    },
    selectAggregationTemporality: () => CUMULATIVE,
  };
}
