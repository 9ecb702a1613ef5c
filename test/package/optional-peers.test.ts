// An install with only some of the optional peers, on each line (SDK 2.x on Node 20 and 22, SDK 3.x on Node 22):
// the package works as far as the installed packages go, and a missing one is named with the variable that asks
// for it and the npm install line of the installed SDK's line.
import { cpSync, existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { startNode } from '@backupstats/testkit/node-process';
import { describe, expect, it, onTestFinished } from 'vitest';
import { requireE2E } from '../support/prometheus.js';
import { haveNode22, node22 } from '../support/sdk3-install.js';

const require = createRequire(import.meta.url);
const packageJsonPath = require.resolve('backupstats/package.json');
const packageDir = dirname(packageJsonPath);

/** The OpenTelemetry packages of a line: the workspace's (2.x) or packages/compat-sdk3's (3.x). */
const lines = [
  {
    name: 'SDK 2.x on Node 20',
    node: process.execPath,
    modules: join(import.meta.dirname, '..', '..', 'node_modules'),
    sdk: 2,
    nodeLine: 2,
  },
  {
    name: 'SDK 2.x on Node 22',
    node: node22,
    modules: join(import.meta.dirname, '..', '..', 'node_modules'),
    sdk: 2,
    nodeLine: 3,
  },
  {
    name: 'SDK 3.x on Node 22',
    node: node22,
    modules: join(import.meta.dirname, '..', '..', 'packages', 'compat-sdk3', 'node_modules'),
    sdk: 3,
    nodeLine: 3,
  },
] as const;

describe('an install with only some of the optional peers', () => {
  it.skipIf(!haveNode22 && !requireE2E).each(lines)(
    '$name: works as far as the installed packages go, and names the variable and the npm install line of the line for a missing one',
    async ({ node, modules: source, sdk, nodeLine }) => {
      // A real node_modules with a copy of the built package and links to the OpenTelemetry packages given.
      const dir = mkdtempSync(join(tmpdir(), 'backupstats-peers-'));
      onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
      const modules = join(dir, 'node_modules');
      mkdirSync(join(modules, '@opentelemetry'), { recursive: true });
      cpSync(packageJsonPath, join(modules, 'backupstats', 'package.json'));
      cpSync(join(packageDir, 'dist'), join(modules, 'backupstats', 'dist'), { recursive: true });
      const link = (name: string) => symlinkSync(realpathSync(join(source, name)), join(modules, name), 'dir');
      writeFileSync(
        join(dir, 'run.mjs'),
        `import { createBackupStats } from 'backupstats';
import { startBackupStats } from 'backupstats/setup';
// Loads without any AWS package: the S3 entry only calls the middleware stack of the client it is given.
import { meterS3Client } from 'backupstats/s3';
if (typeof meterS3Client !== 'function') throw new Error('backupstats/s3 did not load');
// Nor without the Azure SDK (the Azure entry calls the pipeline of the client it is given), and the HTTP entry
// needs nothing but Node.js.
import { meterBlobClient } from 'backupstats/azure';
import { meterHttpRequests } from 'backupstats/http';
if (typeof meterBlobClient !== 'function') throw new Error('backupstats/azure did not load');
if (typeof meterHttpRequests !== 'function') throw new Error('backupstats/http did not load');
createBackupStats().shutdown();
for (const env of JSON.parse(process.argv[2])) {
  try {
    const stats = await startBackupStats({ env });
    await stats.shutdown();
    console.log(JSON.stringify('started'));
  } catch (error) {
    console.log(JSON.stringify(error.code + " " + error.message));
  }
}`,
      );
      const run = async (envs: Array<Record<string, string>>): Promise<string[]> => {
        const child = startNode(['run.mjs', JSON.stringify(envs)], { node, cwd: dir });
        onTestFinished(() => child.kill());
        expect(await child.exited, child.stderr()).toEqual({ code: 0, signal: null });
        return child
          .stdout()
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as string);
      };
      const exporters = sdk === 3 ? '>=0.300 <0.400' : '>=0.200 <0.300';

      link('@opentelemetry/api');
      const [disabled, noSdk] = await run([{ OTEL_SDK_DISABLED: 'true' }, { OTEL_METRICS_EXPORTER: 'console' }]);
      expect(disabled).toBe('started');
      expect(noSdk).toMatch(/^BACKUPSTATS_MISSING_PEER backupstats: /);
      expect(noSdk).toContain('startBackupStats needs the package @opentelemetry/sdk-metrics, which is not installed');
      // Without an SDK, the line that fits the running Node.js.
      expect(noSdk).toContain(
        `install it with: npm install @opentelemetry/sdk-metrics@^${nodeLine} (SDK ${nodeLine}.x, `,
      );

      link('@opentelemetry/sdk-metrics');
      link('@opentelemetry/resources');
      const [consoleOnly, prometheus, otlpDefault, grpc, pushgateway, textfile] = await run([
        { OTEL_METRICS_EXPORTER: 'none' },
        { OTEL_METRICS_EXPORTER: 'prometheus' },
        {},
        { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_EXPORTER_OTLP_METRICS_PROTOCOL: 'grpc' },
        { OTEL_METRICS_EXPORTER: 'console,pushgateway' },
        { OTEL_METRICS_EXPORTER: 'textfile', BACKUPSTATS_TEXTFILE_PATH: join(tmpdir(), 'optional-peers.prom') },
      ]);
      expect(consoleOnly).toBe('started');
      // With an SDK, the exporters of its line, whatever the Node.js (npm's newest exporter may be of the other one).
      expect(prometheus).toMatch(/^BACKUPSTATS_MISSING_PEER backupstats: /);
      expect(prometheus).toContain(
        'OTEL_METRICS_EXPORTER="prometheus" needs the package @opentelemetry/exporter-prometheus',
      );
      expect(prometheus).toContain(
        `install it with: npm install "@opentelemetry/exporter-prometheus@${exporters}" (the 0.${sdk}xx exporters go with the installed SDK ${sdk}.x)`,
      );
      expect(otlpDefault).toContain(
        'OTEL_METRICS_EXPORTER (unset, so "otlp") with OTEL_EXPORTER_OTLP_PROTOCOL (unset, so "http/protobuf") needs the package @opentelemetry/exporter-metrics-otlp-proto',
      );
      expect(otlpDefault).toContain(`npm install "@opentelemetry/exporter-metrics-otlp-proto@${exporters}"`);
      expect(grpc).toContain(
        'OTEL_EXPORTER_OTLP_METRICS_PROTOCOL="grpc" needs the package @opentelemetry/exporter-metrics-otlp-grpc',
      );
      expect(grpc).toContain(`npm install "@opentelemetry/exporter-metrics-otlp-grpc@${exporters}"`);
      // The Pushgateway exporter writes the text format with exporter-prometheus's serializer.
      expect(pushgateway).toContain(
        'OTEL_METRICS_EXPORTER="console,pushgateway" needs the package @opentelemetry/exporter-prometheus',
      );
      expect(pushgateway).toContain(`npm install "@opentelemetry/exporter-prometheus@${exporters}"`);
      // So does the textfile exporter.
      expect(textfile).toContain(
        'OTEL_METRICS_EXPORTER="textfile" needs the package @opentelemetry/exporter-prometheus',
      );

      // The entry points of those two exporters load without exporter-prometheus, in ESM and in CommonJS; each
      // factory refuses at once with the same coded error and install line, which it throws and does not say.
      const textfilePath = join(dir, 'peers.prom');
      for (const [file, load, withDiag] of [
        ['exporters.mjs', '(entry) => import(entry)', false],
        ['exporters.cjs', '(entry) => Promise.resolve().then(() => require(entry))', false],
        ['exporters-diag.mjs', '(entry) => import(entry)', true],
      ] as const) {
        writeFileSync(join(dir, file), exportersScript(load, withDiag));
        const child = startNode([file, textfilePath], { node, cwd: dir });
        onTestFinished(() => child.kill());
        expect(await child.exited, child.stderr()).toEqual({ code: 0, signal: null });
        const said = child.stdout().trim().split('\n');
        const factory = {
          'backupstats/pushgateway': 'createPushgatewayExporter',
          'backupstats/textfile': 'createTextfileExporter',
        };
        expect(said, file).toHaveLength(2);
        for (const [index, entry] of ['backupstats/pushgateway', 'backupstats/textfile'].entries()) {
          const line = JSON.parse(said[index] ?? '') as string;
          expect(line, file).toBe(
            `${entry}: BACKUPSTATS_MISSING_PEER backupstats: ${factory[entry as keyof typeof factory]} needs the package @opentelemetry/exporter-prometheus, which is not installed; install it with: npm install "@opentelemetry/exporter-prometheus@${exporters}" (the 0.${sdk}xx exporters go with the installed SDK ${sdk}.x)`,
          );
        }
        // Thrown, not said: neither on stderr nor through diag.
        expect(child.stderr(), file).not.toContain('needs the package');
        // Refused before the textfile's lock is taken: nothing is left beside the file.
        expect(existsSync(join(dir, '.peers.prom.lock')), file).toBe(false);
      }
    },
  );
});

/**
 * A program that loads backupstats/pushgateway and backupstats/textfile with `load` (an import or a require), makes
 * each exporter and exports twice through it, printing each result's error (or what loading threw). `withDiag`:
 * with a diag logger that writes its errors to stderr, prefixed `diag error: `.
 */
function exportersScript(load: string, withDiag: boolean): string {
  const logger = withDiag
    ? `const { diag } = await load('@opentelemetry/api');
  const ignore = () => {};
  diag.setLogger({ error: (text) => process.stderr.write('diag error: ' + text + '\\n'), warn: ignore, info: ignore, debug: ignore, verbose: ignore });`
    : '';
  return `const load = ${load};
const makers = [
  ['backupstats/pushgateway', (entry) => entry.createPushgatewayExporter({ url: 'http://127.0.0.1:9' })],
  ['backupstats/textfile', (entry) => entry.createTextfileExporter({ path: process.argv[2] })],
];
(async () => {
  ${logger}
  const { defaultResource } = await load('@opentelemetry/resources');
  for (const [name, make] of makers) {
    try {
      const exporter = make(await load(name));
      for (let i = 0; i < 2; i++) {
        const result = await new Promise((done) => exporter.export({ resource: defaultResource(), scopeMetrics: [] }, done));
        console.log(JSON.stringify(name + ': ' + result.error?.code + ' ' + result.error?.message));
      }
      await exporter.shutdown();
    } catch (error) {
      console.log(JSON.stringify(name + ': ' + error.code + ' ' + error.message));
    }
  }
})();
`;
}
