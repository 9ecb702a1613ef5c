import { readFileSync } from 'node:fs';
import { defineConfig } from 'tsup';

// The one place the version is written is package.json; the build puts it into VERSION (src/version.ts).
const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

export default defineConfig({
  // `setup` and `s3` are entries of their own so that the core (`index`) keeps importing only @opentelemetry/api.
  entry: { index: 'src/index.ts', 'setup/index': 'src/setup/index.ts', 's3/index': 'src/s3/index.ts' },
  // Each entry self-contained: `dist/index.js` must not import a shared chunk.
  splitting: false,
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  platform: 'node',
  define: { BACKUPSTATS_PACKAGE_VERSION: JSON.stringify(version) },
});
