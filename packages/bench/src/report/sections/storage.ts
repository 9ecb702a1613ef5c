import type { AzureUploadResult } from '../../storage/azure-upload.js';
import type { HttpRequestResult } from '../../storage/http-request.js';
import { fixed, percent, table } from '../format.js';

/** What metering costs a storage request: the HTTP meter per request, and a 200 MiB upload to Azurite. */
export function storageSection(http: HttpRequestResult | undefined, azure: AzureUploadResult | undefined): string[] {
  const out = ['', '### Cost of metering storage requests', ''];
  if (http !== undefined) {
    const none = (client: string) =>
      http.listeners.find((r) => r.client === client && r.metering === 'none')?.nsPerRequest ?? Number.NaN;
    out.push(
      table(
        ['channel messages of one request', 'metering', 'per request', 'added by the meter'],
        http.listeners.map((r) => [
          `\`${r.client}\` (synthetic, no network)`,
          r.metering === 'none' ? 'unmetered' : `\`meterHttpRequests\` on ${r.metering}`,
          `${fixed(r.nsPerRequest, 0)} ns (± ${fixed(r.rmePercent, 1)} %)`,
          r.metering === 'none' ? '–' : `${fixed((r.nsPerRequest - none(r.client)) / 1000, 2)} µs`,
        ]),
      ),
      '',
      'The messages Node publishes for one request go through the real channels (tinybench, an inner loop per sample, ' +
        'medians); the rows below send real requests.',
      '',
    );
    const base = (client: string) =>
      http.rows.find((r) => r.client === client && r.metering === 'none')?.cpuUsPerRequest ?? Number.NaN;
    out.push(
      table(
        ['client', 'metering', 'wall per request', 'CPU per request', 'CPU difference'],
        http.rows.map((r) => [
          `\`${r.client}\` PUT 1 KiB ⇄ 1 KiB, keep-alive, 127.0.0.1`,
          r.metering === 'none' ? 'unmetered' : `\`meterHttpRequests\` on ${r.metering}`,
          `${fixed(r.usPerRequest, 1)} µs`,
          `${fixed(r.cpuUsPerRequest, 1)} µs`,
          r.metering === 'none'
            ? '–'
            : `${fixed(r.cpuUsPerRequest - base(r.client), 2)} µs (${percent(((r.cpuUsPerRequest - base(r.client)) / base(r.client)) * 100)})`,
        ]),
      ),
      '',
      `Medians over ${http.rows[0]?.rounds} interleaved rounds of ${http.rows[0]?.requestsPerRound} requests each; ` +
        "the CPU time is this process's, client and server together; every metered request is checked to have reached " +
        'OpenTelemetry.',
      '',
    );
  }
  if (azure !== undefined) {
    const unmetered = azure.rows.find((r) => r.case === 'unmetered')?.msPerUpload ?? Number.NaN;
    const unmeteredCpu = azure.rows.find((r) => r.case === 'unmetered')?.cpuMsPerUpload ?? Number.NaN;
    out.push(
      table(
        [
          'upload to Azurite on 127.0.0.1',
          'wall (median)',
          'min – max',
          'wall difference',
          'client CPU',
          'CPU difference',
        ],
        azure.rows.map((r) => [
          `${fixed(r.bytes / 1024 / 1024, 0)} MiB \`uploadData\`, 4 MiB blocks, 4 in flight, ${r.case}`,
          `${fixed(r.msPerUpload, 0)} ms`,
          `${fixed(r.minMs, 0)} – ${fixed(r.maxMs, 0)} ms`,
          r.case === 'unmetered' ? '–' : percent(((r.msPerUpload - unmetered) / unmetered) * 100),
          `${fixed(r.cpuMsPerUpload, 0)} ms`,
          r.case === 'unmetered' ? '–' : percent(((r.cpuMsPerUpload - unmeteredCpu) / unmeteredCpu) * 100),
        ]),
      ),
      '',
      `${azure.requestsPerUpload} requests per upload; ${azure.rows[0]?.rounds} interleaved rounds. Azurite runs in its ` +
        'own process on the same cores.',
    );
  }
  return out;
}
