/**
 * How the stats' bound fits the OpenTelemetry SDK's own per-instrument limit, `aggregationCardinalityLimit`
 * (2000 unless a View or reader sets it). With a limit L the SDK keeps L - 1 attribute sets per instrument and
 * collection and folds every further set into its own overflow series (`otel.metric.overflow=true`; read
 * `DeltaMetricProcessor` in sdk-metrics 2.x and 3.x). The stats' overflow series has the same attributes, but
 * when it is recorded first in a collection it takes one of the L - 1 places like any other set. The stats put
 * at most `maxScopes` series into an instrument, their overflow series included (`maxScopes - 1` label
 * combinations, the root's among them), so the SDK keeps every one of them when L >= maxScopes + 1.
 */
const SDK_DEFAULT_CARDINALITY_LIMIT = 2000;

/** The default `maxScopes`: the most series a provider with the SDK's stock limit keeps without folding. */
export const DEFAULT_MAX_SCOPES = SDK_DEFAULT_CARDINALITY_LIMIT - 1;

/** The SDK `aggregationCardinalityLimit` that keeps every series of stats bounded by `maxScopes`. */
export function cardinalityLimitFor(maxScopes: number): number {
  return Math.max(SDK_DEFAULT_CARDINALITY_LIMIT, maxScopes + 1);
}
