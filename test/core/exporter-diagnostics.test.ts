// What the exporters made in code say through diag, each message whole, in process: a Pushgateway that refuses a
// push (a node:http server on 127.0.0.1 answering 400), a textfile that cannot be written (a directory where the
// file goes), a textfile whose job another file of the directory already holds; and set-up's report page that
// cannot be written at shutdown (BACKUPSTATS_REPORT_PATH).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resourceFromAttributes } from '@opentelemetry/resources';
import type { PushMetricExporter, ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { createPushgatewayExporter } from 'backupstats/pushgateway';
import { startBackupStats } from 'backupstats/setup';
import { createTextfileExporter } from 'backupstats/textfile';
import { describe, expect, onTestFinished } from 'vitest';
import { it } from '../support/fixtures.js';

type Result = Parameters<Parameters<PushMetricExporter['export']>[1]>[0];

/** Exports `metrics` and resolves with the result the exporter handed back. */
function exportOnce(exporter: PushMetricExporter, metrics: ResourceMetrics): Promise<Result> {
  return new Promise((resolve) => exporter.export(metrics, resolve));
}

/** An export with no metrics, from a resource of `service.name` `nightly`. */
const NIGHTLY: ResourceMetrics = { resource: resourceFromAttributes({ 'service.name': 'nightly' }), scopeMetrics: [] };

function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), 'backupstats-exporter-diagnostics-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A server on 127.0.0.1 (a free port) that answers every request 400 with `body`; resolves with its base URL. */
async function refusingServer(body: string): Promise<{ url: string; requests: string[] }> {
  const requests: string[] = [];
  const server = createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`);
    request.resume();
    request.on('end', () => {
      response.writeHead(400, { 'content-type': 'text/plain' });
      response.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}

describe('the Pushgateway exporter', () => {
  it('a push answered 400 is reported once, with where, the status and the answer quoted; the export fails', async ({
    diagnostics,
  }) => {
    const answer = 'pushed metrics are invalid or inconsistent with existing metrics: "x" is a counter\n';
    const { url, requests } = await refusingServer(answer);
    const exporter = createPushgatewayExporter({ url, job: 'nightly', instance: 'db1' });
    onTestFinished(() => exporter.shutdown());
    const where = `${url}/metrics/job/nightly/instance/db1`;
    const first = await exportOnce(exporter, NIGHTLY);
    expect(first.error?.message).toBe(
      `the Pushgateway answered 400 Bad Request to the push to ${where}: ${answer.trim()}`,
    );
    // The same refusal again is not reported again.
    await exportOnce(exporter, NIGHTLY);
    expect(requests).toEqual(['POST /metrics/job/nightly/instance/db1', 'POST /metrics/job/nightly/instance/db1']);
    expect(diagnostics.messages).toEqual([
      `backupstats: the Pushgateway refused the push to ${where} (400 Bad Request): ${JSON.stringify(answer.trim())}; that push is dropped, the job goes on and the next push is sent on the export interval`,
    ]);
  });
});

describe('the textfile exporter', () => {
  it('a file it cannot write (a directory in its place) is reported once, with the path and the reason', async ({
    diagnostics,
  }) => {
    const path = join(scratch(), 'backup.prom');
    const exporter = createTextfileExporter({ path });
    onTestFinished(() => exporter.shutdown());
    mkdirSync(path);
    const first = await exportOnce(exporter, NIGHTLY);
    const prefix = `the write of ${path} failed: `;
    const message = first.error?.message ?? '';
    expect(message.startsWith(prefix)).toBe(true);
    const reason = message.slice(prefix.length);
    expect(reason).toMatch(/^EISDIR: illegal operation on a directory, rename '.*' -> '.*backup\.prom'$/);
    await exportOnce(exporter, NIGHTLY);
    expect(diagnostics.messages).toEqual([
      `backupstats: the textfile exporter could not write ${path}: ${reason}; node_exporter serves the previous file, the job goes on and the next export tries again`,
    ]);
  });

  it('a job whose series another file of the directory holds: said at the first export, nothing written', async ({
    diagnostics,
  }) => {
    const dir = scratch();
    const other = join(dir, 'first.prom');
    writeFileSync(other, 'target_info{service_name="nightly"} 1\n');
    const path = join(dir, 'second.prom');
    const exporter = createTextfileExporter({ path });
    onTestFinished(() => exporter.shutdown());
    const sentence = `backupstats: createTextfileExporter option path is ${JSON.stringify(path)}, and ${other} in the same directory already holds the series of service_name "nightly": node_exporter would serve only one of two such series. Give each job its own OTEL_SERVICE_NAME (service.name), or remove that file if no job writes it any more`;
    const result = await exportOnce(exporter, NIGHTLY);
    expect(result.error?.message).toBe(sentence);
    await exportOnce(exporter, NIGHTLY);
    expect(diagnostics.messages).toEqual([`${sentence}; nothing is written to the file`]);
  });
});

describe("set-up's report page", () => {
  it('one that cannot be written at shutdown (a directory in its place) is said through diag, whole', async ({
    diagnostics,
  }) => {
    const path = join(scratch(), 'report.html');
    const stats = await startBackupStats({ env: { OTEL_METRICS_EXPORTER: 'none', BACKUPSTATS_REPORT_PATH: path } });
    mkdirSync(path);
    await expect(stats.shutdown()).resolves.toBeUndefined();
    expect(diagnostics.messages).toHaveLength(1);
    expect(diagnostics.messages[0]).toMatch(
      new RegExp(
        `^backupstats: the report ${escaped(path)} \\(BACKUPSTATS_REPORT_PATH\\) was not written: Error: EISDIR: illegal operation on a directory, rename '${escaped(join(path, '..'))}/\\.report\\.html\\.\\d+-\\d+\\.tmp' -> '${escaped(path)}'$`,
      ),
    );
  });
});

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
