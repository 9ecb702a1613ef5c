// A CommonJS project on TypeScript's `--moduleResolution node` (node10), which reads no `exports`: every entry point
// must resolve with its types (not TS2307 for `backupstats/setup` or `backupstats/s3`). The project
// lives in the workspace so that `backupstats` resolves as an installed package; test/.run-* is git-ignored.
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
    const program = ts.createProgram([file], {
      module: ts.ModuleKind.CommonJS,
      moduleResolution: ts.ModuleResolutionKind.Node10,
      target: ts.ScriptTarget.ES2022,
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      esModuleInterop: true,
      types: ['node'],
      ignoreDeprecations: '5.0',
    });
    const errors = ts
      .getPreEmitDiagnostics(program)
      .map((d) => `TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    expect(errors).toEqual([]);
  });
});
