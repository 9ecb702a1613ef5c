// @ts-nocheck
import { accessSync, constants } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { vi } from 'vitest';
import { freePort } from './free-port.js';
import { startServerProcess } from './server-process.js';

/**
 * The executable named by the variable `variable` if set (then the only candidate, so that pointing it elsewhere
 * really changes the binary), else `fallback`; undefined when it is not there.
 */
export function findBinary(variable: string, fallback: string): string | undefined {
  const explicit = process.env[variable];
  const candidate = explicit !== undefined && explicit !== '' ? explicit : fallback;
  try {
    accessSync(candidate, constants.X_OK);
    return candidate;
  } catch {
    return undefined;
  }
}

/** The Prometheus server binary (`PROMETHEUS_BIN` if set, else `/usr/bin/prometheus`), or undefined when absent. */
export const prometheusBinary: string | undefined = findBinary('PROMETHEUS_BIN', '/usr/bin/prometheus');

/** True when `BACKUPSTATS_REQUIRE_E2E=1`: a missing Prometheus must then fail the tests, not skip them. */
export const requireE2E: boolean = process.env.BACKUPSTATS_REQUIRE_E2E === '1';

if (prometheusBinary === undefined && !requireE2E) {
  // Said once per test file that imports this module, so a skip never goes unexplained.
  console.warn(
    'backupstats e2e: Prometheus not found (set PROMETHEUS_BIN or install the "prometheus" package); ' +
      'the tests that need it are skipped. Set BACKUPSTATS_REQUIRE_E2E=1 to make that a failure.',
  );
}

/** One sample of an instant-vector query result. */
export interface PromSample {
  metric: Record<string, string>;
  value: number;
}

/** One alert as Prometheus's `/api/v1/alerts` reports it. */
export interface PromAlert {
  labels: Record<string, string>;
  annotations: Record<string, string>;
  state: 'pending' | 'firing';
  activeAt: string;
  value: string;
}

/** A running Prometheus server started by {@link startPrometheus}. */
export interface PrometheusServer {
  /** Base URL, such as `http://127.0.0.1:41234`. */
  readonly url: string;
  /** Runs an instant query through the HTTP API and returns the vector's samples. */
  query(promql: string): Promise<PromSample[]>;
  /**
   * Repeats the query until it returns samples for which `predicate` holds (default: at least one sample),
   * and returns them; throws with the last result after `timeoutMs` (default 30 s).
   */
  waitForSamples(promql: string, predicate?: (s: PromSample[]) => boolean, timeoutMs?: number): Promise<PromSample[]>;
  /** The alerts of the loaded rules that are pending or firing now. */
  alerts(): Promise<PromAlert[]>;
  /** Kills the server and removes its configuration and storage. */
  stop(): Promise<void>;
}

/**
 * Starts the real Prometheus binary on 127.0.0.1 (free port), scraping `targets` (`host:port`) every
 * `scrapeIntervalSeconds` (default 1, also the rule evaluation interval), with a temporary storage directory.
 * `metricRelabelConfigs` is YAML (list items indented by six spaces) put under the scrape job's
 * `metric_relabel_configs`; `ruleFiles` are loaded as its rule files; `honorLabels` keeps the `job` and `instance`
 * the targets' series carry (a Pushgateway's). Resolves once `/-/ready` says so.
 * Throws, saying that Prometheus is missing, when there is no binary.
 */
export async function startPrometheus(
  targets: readonly string[],
  options: {
    scrapeIntervalSeconds?: number;
    metricRelabelConfigs?: string;
    ruleFiles?: readonly string[];
    honorLabels?: boolean;
  } = {},
): Promise<PrometheusServer> {
  if (prometheusBinary === undefined) {
    throw new Error(
      'Prometheus is missing: no executable at PROMETHEUS_BIN or /usr/bin/prometheus (apt-get install prometheus), ' +
        'and BACKUPSTATS_REQUIRE_E2E=1 requires the end-to-end tests to run',
    );
  }
  const interval = options.scrapeIntervalSeconds ?? 1;
  const dir = await mkdtemp(join(tmpdir(), 'backupstats-prom-'));
  const config = [
    'global:',
    `  scrape_interval: ${interval}s`,
    `  scrape_timeout: ${interval}s`,
    `  evaluation_interval: ${interval}s`,
    ...(options.ruleFiles === undefined
      ? []
      : ['rule_files:', ...options.ruleFiles.map((file) => `  - ${JSON.stringify(file)}`)]),
    'scrape_configs:',
    '  - job_name: backupstats',
    ...(options.honorLabels === true ? ['    honor_labels: true'] : []),
    '    static_configs:',
    `      - targets: [${targets.map((t) => JSON.stringify(t)).join(', ')}]`,
    ...(options.metricRelabelConfigs === undefined
      ? []
      : ['    metric_relabel_configs:', options.metricRelabelConfigs]),
    '',
  ].join('\n');
  await writeFile(join(dir, 'prometheus.yml'), config);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const server = startServerProcess(
    'Prometheus',
    prometheusBinary,
    [
      `--config.file=${join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=warn',
    ],
    dir,
  );
  await server.ready(async () => {
    const response = await fetch(`${url}/-/ready`);
    if (!response.ok) throw new Error(`/-/ready answered ${response.status}`);
  });

  const query = async (promql: string): Promise<PromSample[]> => {
    const response = await fetch(`${url}/api/v1/query?query=${encodeURIComponent(promql)}`);
    const body = (await response.json()) as {
      status: string;
      error?: string;
      data?: { resultType: string; result: { metric: Record<string, string>; value: [number, string] }[] };
    };
    if (body.status !== 'success' || body.data === undefined) {
      throw new Error(`Prometheus query ${promql} failed: ${body.error ?? response.status}`);
    }
    if (body.data.resultType !== 'vector') {
      throw new Error(`Prometheus query ${promql} returned a ${body.data.resultType}, not a vector`);
    }
    return body.data.result.map((r) => ({ metric: r.metric, value: Number(r.value[1]) }));
  };

  return {
    url,
    query,
    waitForSamples: (promql, predicate = (s) => s.length > 0, timeoutMs = 30_000) =>
      vi.waitFor(
        async () => {
          const samples = await query(promql);
          if (!predicate(samples)) {
            throw new Error(
              `Prometheus query ${promql} did not match within ${timeoutMs} ms; last result: ${JSON.stringify(samples)}`,
            );
          }
          return samples;
        },
        { timeout: timeoutMs, interval: 250 },
      ),
    async alerts() {
      const response = await fetch(`${url}/api/v1/alerts`);
      const body = (await response.json()) as { status: string; data?: { alerts: PromAlert[] } };
      if (body.status !== 'success' || body.data === undefined)
        throw new Error(`Prometheus /api/v1/alerts failed: ${response.status}`);
      return body.data.alerts;
    },
    stop: server.stop,
  };
}
