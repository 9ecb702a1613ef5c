import { defineConfig } from 'tsup';

export default defineConfig({
  // `setup` is a second entry so that the core (`index`) keeps importing only @opentelemetry/api.
  entry: { index: 'src/index.ts', 'setup/index': 'src/setup/index.ts' },
  // Each entry self-contained: `dist/index.js` must not import a shared chunk.
  splitting: false,
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  platform: 'node',
});
