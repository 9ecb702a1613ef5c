import type { Metadata } from '@grpc/grpc-js';
import type { PushMetricExporter } from '@opentelemetry/sdk-metrics';
import { ERROR_CODES, notAccepted } from '../../base/errors.js';
import { redactUrl } from '../../base/http.js';
import { missingPeer, type SdkLine } from '../../base/missing-peer.js';
import type { OtlpProtocol, OtlpSettings } from '../env/otlp-settings.js';

/** What the three OTLP exporter packages' constructors take here (gRPC: `metadata` for headers). */
interface OtlpConfig {
  url: string;
  headers?: Record<string, string>;
  metadata?: Metadata;
  temporalityPreference: number;
  timeoutMillis: number;
}

type OtlpExporterClass = new (config: OtlpConfig) => PushMetricExporter;

type OnMissing = (error: unknown) => never;

/**
 * The package and exporter class of each OTLP protocol. Each import stays a literal `import('…').catch(…)`, which
 * bundlers such as esbuild bundle when the package is installed and leave to run time when it is not.
 */
const OTLP_PACKAGES: Readonly<
  Record<OtlpProtocol, { name: string; load(onMissing: OnMissing): Promise<{ OTLPMetricExporter: OtlpExporterClass }> }>
> = {
  'http/protobuf': {
    name: '@opentelemetry/exporter-metrics-otlp-proto',
    load: (onMissing) => import('@opentelemetry/exporter-metrics-otlp-proto').catch(onMissing),
  },
  'http/json': {
    name: '@opentelemetry/exporter-metrics-otlp-http',
    load: (onMissing) => import('@opentelemetry/exporter-metrics-otlp-http').catch(onMissing),
  },
  grpc: {
    name: '@opentelemetry/exporter-metrics-otlp-grpc',
    load: (onMissing) => import('@opentelemetry/exporter-metrics-otlp-grpc').catch(onMissing),
  },
};

// The enum lives in the HTTP package, which the proto and gRPC packages depend on; its values are fixed and the
// same in the 0.2xx and 0.3xx lines.
const TEMPORALITY_PREFERENCE = { delta: 0, cumulative: 1, lowmemory: 2 } as const;

/** Creates OTLP exporters as the settings say, and names them for messages (no secret in the name). */
export interface OtlpExporterFactory {
  readonly label: string;
  create(): PushMetricExporter;
}

/**
 * Loads the exporter package of the settings' protocol (and grpc-js for gRPC headers). The exporters it creates
 * are configured explicitly, so that the package's own reading of `process.env` cannot contradict the settings.
 * `exportersSource` names the variable that asked for OTLP, and `line` the installed SDK's, for the error about a
 * missing package.
 */
export async function loadOtlpExporter(
  otlp: OtlpSettings,
  exportersSource: string,
  line: SdkLine,
): Promise<OtlpExporterFactory> {
  const label = `OTLP exporter (${otlp.protocol}, ${redactUrl(otlp.url)})`;
  const create = await loadConstructor(otlp, exportersSource, line);
  return { label, create };
}

async function loadConstructor(
  otlp: OtlpSettings,
  exportersSource: string,
  line: SdkLine,
): Promise<() => PushMetricExporter> {
  const askedBy = `${exportersSource} with ${otlp.protocolSource}`;
  const { name, load } = OTLP_PACKAGES[otlp.protocol];
  const { OTLPMetricExporter } = await load(missingPeer(name, askedBy, line));
  const config: OtlpConfig = {
    url: otlp.url,
    temporalityPreference: TEMPORALITY_PREFERENCE[otlp.temporality],
    timeoutMillis: otlp.timeoutMillis,
  };
  const entries = Object.entries(otlp.headers);
  if (otlp.protocol !== 'grpc') return () => new OTLPMetricExporter({ ...config, headers: { ...otlp.headers } });
  if (entries.length === 0) return () => new OTLPMetricExporter(config);
  // gRPC takes headers as grpc-js Metadata. @grpc/grpc-js is already installed under the gRPC exporter, but a
  // strict layout (pnpm) lets only a direct dependency import it.
  const grpcJs = await import('@grpc/grpc-js').catch(missingPeer('@grpc/grpc-js', `${askedBy} and OTLP headers`, line));
  return () => {
    const metadata = new grpcJs.Metadata();
    for (const [key, value] of entries) {
      try {
        metadata.set(key, value);
      } catch {
        // The headers were checked against grpc-js's own rules; should a grpc-js release tighten them, its error
        // quotes the value, so it is neither shown nor kept as the cause.
        throw notAccepted(
          ERROR_CODES.INVALID_ENV,
          'OTEL_EXPORTER_OTLP_HEADERS / OTEL_EXPORTER_OTLP_METRICS_HEADERS',
          '<redacted>',
          'lower-case keys of letters, digits, "_", "." and "-" with printable ASCII values',
          '@grpc/grpc-js refused one of the headers as gRPC metadata; the text is not shown because it may hold secrets',
        );
      }
    }
    return new OTLPMetricExporter({ ...config, metadata });
  };
}
