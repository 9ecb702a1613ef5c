// A CommonJS project on TypeScript's `--moduleResolution node` (node10), which reads no `exports`: every entry point
// must resolve with its types (not TS2307 for `backupstats/setup` or `backupstats/s3`). The project
// lives in the workspace so that `backupstats` resolves as an installed package; test/.run-* is git-ignored.
//
// The project is a Node one without the storage SDKs (optional peers, which the s3 and azure entry points load
// without): lib ES2022 without the DOM's types, and the workspace's AWS and Azure packages out of its sight. They are
// three fifths of what the compiler would otherwise parse, and nothing of them is checked (skipLibCheck).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it, onTestFinished } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
// Every subpath the package exports, so that a new entry point without its typesVersions line fails here.
const manifest = JSON.parse(readFileSync(join(root, 'packages/processor/package.json'), 'utf8')) as {
  exports: Record<string, unknown>;
};
const subpaths = Object.keys(manifest.exports)
  .filter((key) => key.startsWith('./') && key !== './package.json')
  .map((key) => key.slice(2));

describe('TypeScript with moduleResolution node (CommonJS projects)', () => {
  it('resolves every entry point and its types', () => {
    const dir = mkdtempSync(join(root, 'test', '.run-ts-node10-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'job.ts');
    writeFileSync(
      file,
      `import { createBackupStats, type Stats } from 'backupstats';
import { startBackupStats, type StartedBackupStats } from 'backupstats/setup';
import { meterS3Client } from 'backupstats/s3';
import { createPushgatewayExporter } from 'backupstats/pushgateway';
import { connectBackupStats } from 'backupstats/worker';
import { writeReport } from 'backupstats/report';
const handle: Stats = createBackupStats().backup;
const started: Promise<StartedBackupStats> = startBackupStats();
export { handle, started, meterS3Client, createPushgatewayExporter, connectBackupStats, writeReport };
${subpaths.map((sub, i) => `import * as entry${i} from 'backupstats/${sub}';\nexport { entry${i} };`).join('\n')}
`,
    );
    const options: ts.CompilerOptions = {
      module: ts.ModuleKind.CommonJS,
      moduleResolution: ts.ModuleResolutionKind.Node10,
      target: ts.ScriptTarget.ES2022,
      lib: ['lib.es2022.d.ts'],
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      esModuleInterop: true,
      types: ['node'],
      ignoreDeprecations: '5.0',
    };
    const host = ts.createCompilerHost(options);
    const storageSdk = /\/node_modules\/(@aws-sdk|@smithy|@azure)\//;
    const { fileExists, directoryExists } = host;
    host.fileExists = (path) => !storageSdk.test(path) && fileExists.call(host, path);
    host.directoryExists = (path) => !storageSdk.test(`${path}/`) && (directoryExists?.call(host, path) ?? true);
    const program = ts.createProgram([file], options, host);
    const errors = ts
      .getPreEmitDiagnostics(program)
      .map((d) => `TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    expect(errors).toEqual([]);
  });
});
