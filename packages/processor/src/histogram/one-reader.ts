import { ERROR_CODES, notAccepted } from '../base/errors.js';
import type { HistogramProducer } from './histogram-producer.js';

/**
 * Refuses a delta producer that feeds more than one reader of `provider`. A delta producer remembers what it
 * handed over at the previous collection: shared by two readers, each would get only what the other's
 * collections left, and neither the truth. The SDK's MetricReader calls a producer with nothing that tells
 * which reader asks, so the producer cannot split its memory by reader; the readers are looked at here instead,
 * when stats are created on the provider. The SDK keeps them in the same fields on the 1.x, 2.x and 3.x lines
 * (`_sharedState.metricCollectors[i]._metricReader._metricProducers`); a provider without them (the API's no-op
 * one, another implementation) is not checked.
 *
 * @throws TypeError naming the option, when a delta producer is in the `metricProducers` of two readers.
 */
export function checkOneReaderEach(provider: unknown, producers: readonly HistogramProducer[]): void {
  const lists = producerListsOf(provider);
  for (const producer of producers) {
    if (producer.temporality !== 'delta') continue;
    const readers = lists.filter((list) => list.includes(producer)).length;
    if (readers > 1) {
      throw notAccepted(
        ERROR_CODES.INVALID_OPTION,
        'option histogramProducers',
        `a delta producer that ${readers} readers of the MeterProvider have in their metricProducers`,
        "one reader per delta producer: createHistogramProducer({ temporality: 'delta' }) once for each reader",
      );
    }
  }
}

/** The `metricProducers` of every reader of an SDK MeterProvider; none when the provider is not one. */
function producerListsOf(provider: unknown): unknown[][] {
  // Stryker disable next-line OptionalChaining: the provider is always an object: the options accept no other
  const collectors = (provider as { _sharedState?: { metricCollectors?: unknown } } | undefined)?._sharedState
    ?.metricCollectors;
  if (!Array.isArray(collectors)) return [];
  const lists: unknown[][] = [];
  for (const collector of collectors) {
    const list = (collector as { _metricReader?: { _metricProducers?: unknown } } | undefined)?._metricReader
      ?._metricProducers;
    if (Array.isArray(list)) lists.push(list);
  }
  return lists;
}
