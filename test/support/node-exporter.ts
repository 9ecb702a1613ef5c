// Debian's node_exporter (prometheus-node-exporter, 1.5.0) with only its textfile collector, started on 127.0.0.1 at a
// free port over a temporary directory of the test's, and stopped when the test ends.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';
import { findBinary, requireE2E } from './prometheus.js';
import { parseExposition, type Sample } from './pushgateway/exposition.js';
import { startServerProcess } from './server-process.js';

/** The node_exporter binary (`NODE_EXPORTER_BIN` if set, else `/usr/bin/prometheus-node-exporter`), or undefined. */
export const nodeExporterBinary: string | undefined = findBinary(
  'NODE_EXPORTER_BIN',
  '/usr/bin/prometheus-node-exporter',
);

if (nodeExporterBinary === undefined && !requireE2E) {
  // Said once per test file that imports this module, so a skip never goes unexplained.
  console.warn(
    'backupstats e2e: node_exporter was not found (set NODE_EXPORTER_BIN or install the "prometheus-node-exporter" ' +
      'package); the tests that need it are skipped. Set BACKUPSTATS_REQUIRE_E2E=1 to make that a failure.',
  );
}

/** A running node_exporter started by {@link startNodeExporter}. */
export interface NodeExporterServer {
  /** `127.0.0.1:<port>`, a Prometheus target. */
  readonly address: string;
  /** The directory its textfile collector reads (`--collector.textfile.directory`), removed by `stop`. */
  readonly dir: string;
  /** What it serves on /metrics now, read through once. */
  exposition(): Promise<string>;
  /** The same, parsed. */
  samples(): Promise<Sample[]>;
  /** Kills it and removes the directory. */
  stop(): Promise<void>;
}

/**
 * Starts node_exporter on 127.0.0.1 (free port) with every collector off but the textfile one, which reads a new
 * temporary directory. Resolves once /metrics answers; throws, saying it is missing, without a binary.
 */
export async function startNodeExporter(): Promise<NodeExporterServer> {
  if (nodeExporterBinary === undefined) {
    throw new Error(
      'node_exporter is missing: no executable at NODE_EXPORTER_BIN or /usr/bin/prometheus-node-exporter ' +
        '(apt-get install prometheus-node-exporter), and BACKUPSTATS_REQUIRE_E2E=1 requires the end-to-end tests to run',
    );
  }
  const dir = await mkdtemp(join(tmpdir(), 'backupstats-textfile-'));
  const port = await freePort();
  const address = `127.0.0.1:${port}`;
  const server = startServerProcess(
    'node_exporter',
    nodeExporterBinary,
    [
      `--web.listen-address=${address}`,
      '--collector.disable-defaults',
      '--collector.textfile',
      `--collector.textfile.directory=${dir}`,
      '--log.level=warn',
    ],
    dir,
  );
  const exposition = async (): Promise<string> => {
    const response = await fetch(`http://${address}/metrics`);
    if (!response.ok) throw new Error(`node_exporter /metrics answered ${response.status}`);
    return response.text();
  };
  await server.ready(async () => {
    await exposition();
  });
  return {
    address,
    dir,
    exposition,
    samples: async () => parseExposition(await exposition()),
    stop: server.stop,
  };
}
