import { defineConfig } from 'tsup';

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
});
