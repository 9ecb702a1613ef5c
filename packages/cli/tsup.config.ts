import { readFileSync } from 'node:fs';
import { defineConfig } from 'tsup';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

export default defineConfig({
  // One file: the command loads only what it runs (`meter` inside a run never loads the library, nor the SDK).
  entry: { cli: 'src/cli.ts', 'meter-worker': 'src/meter-worker.ts' },
  format: ['esm'],
  clean: true,
  sourcemap: false,
  target: 'node20',
  platform: 'node',
  banner: { js: '#!/usr/bin/env node' },
  define: { BACKUPSTATS_CLI_VERSION: JSON.stringify(version) },
});
