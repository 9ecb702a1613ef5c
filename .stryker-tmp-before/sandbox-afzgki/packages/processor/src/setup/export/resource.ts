// @ts-nocheck
import type { Resource } from '@opentelemetry/resources';

type ResourcesModule = typeof import('@opentelemetry/resources');

/**
 * The resource of the MeterProvider that set-up builds: the SDK's default one (`service.name` =
 * `unknown_service:node`, `telemetry.sdk.*`) with the attributes of `OTEL_RESOURCE_ATTRIBUTES` and
 * `OTEL_SERVICE_NAME` on top. The SDK's `envDetector` is not used because it reads only `process.env` and drops
 * malformed lists silently; the attributes here were parsed strictly from the caller's environment.
 */
export function buildResource(resources: ResourcesModule, attributes: Readonly<Record<string, string>>): Resource {
  return resources.defaultResource().merge(resources.resourceFromAttributes(attributes));
}
