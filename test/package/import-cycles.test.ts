// The library's modules form no import cycle, type-only imports included: a cycle means two files that cannot be
// read, or changed, one without the other. madge walks the TypeScript sources as the compiler resolves them. The
// folders of the source are layers (CONTRIBUTING.md draws them): each imports only folders below it, so no two
// folders lean on each other either.
import { fileURLToPath } from 'node:url';
import madge from 'madge';
import { beforeAll, describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../packages/processor/src/', import.meta.url));
const TSCONFIG = fileURLToPath(new URL('../../packages/processor/tsconfig.json', import.meta.url));

/** The layers, from the floor up: the order CONTRIBUTING.md draws. The root holds only the barrel, `index.ts`. */
const LAYERS = [
  'base',
  'diagnostics',
  'api',
  'naming',
  'histogram',
  'series',
  'timeline',
  'runs',
  'family',
  'link',
  'reader',
  'instance',
  'io',
  'testing',
  'worker',
  'pushgateway',
  'textfile',
  'report',
  's3',
  'http',
  'azure',
  'setup',
  '(root)',
];

/** The folder of a source file (its first path segment), `(root)` for a file at the root. */
const folderOf = (file: string): string => (file.includes('/') ? (file.split('/')[0] as string) : '(root)');

let graph: Record<string, string[]>;
let cycles: string[][];
/** Every import from one folder into another, as `from -> to (file -> file)`. */
let crossings: { from: string; to: string; text: string }[];

/** Warnings emitted while madge walked the sources. */
const warnings: Error[] = [];

beforeAll(async () => {
  // madge's TypeScript parser (typescript-estree) reads a property that it deprecated itself, and Node prints its
  // DeprecationWarning in every test run: not ours to fix, nor the reader's to see.
  const onWarning = (warning: Error) => warnings.push(warning);
  process.on('warning', onWarning);
  const wasSilenced = process.noDeprecation === true;
  process.noDeprecation = true;
  const result = await madge(SRC, {
    fileExtensions: ['ts'],
    tsConfig: TSCONFIG,
    detectiveOptions: { ts: { skipTypeImports: false } },
  }).finally(() => {
    process.noDeprecation = wasSilenced;
    process.off('warning', onWarning);
  });
  graph = result.obj();
  cycles = result.circular();
  crossings = Object.entries(graph).flatMap(([file, imported]) =>
    imported
      .filter((target) => folderOf(target) !== folderOf(file))
      .map((target) => ({ from: folderOf(file), to: folderOf(target), text: `${file} -> ${target}` })),
  );
}, 60_000);

describe('packages/processor/src', () => {
  it('is walked without a warning printed', () => {
    expect(warnings.map((w) => w.message)).toEqual([]);
  });

  it('has no import cycle between files, type-only imports included', () => {
    // A graph without its files would pass for no cycle: the barrel and the record path must be in it.
    expect(Object.keys(graph)).toEqual(
      expect.arrayContaining(['index.ts', 'series/series-handle.ts', 'setup/start.ts', 'base/errors.ts']),
    );
    // A type-only import is in the graph too: api/stats.ts imports nothing but types.
    expect(graph['api/stats.ts']).toContain('api/link-types.ts');
    expect(cycles).toEqual([]);
  });

  it('has its files in the layers only, and the root holds only the barrel', () => {
    const folders = new Set(Object.keys(graph).map(folderOf));
    expect([...folders].filter((folder) => !LAYERS.includes(folder))).toEqual([]);
    expect(Object.keys(graph).filter((file) => folderOf(file) === '(root)')).toEqual(['index.ts']);
  });

  it('has each folder import only folders below it, type-only imports included', () => {
    expect(crossings.length).toBeGreaterThan(20);
    const upwards = crossings.filter(({ from, to }) => LAYERS.indexOf(to) >= LAYERS.indexOf(from));
    expect(upwards.map(({ text }) => text)).toEqual([]);
  });

  it('has a floor, base/, that imports nothing of the library', () => {
    expect(crossings.filter(({ from }) => from === 'base').map(({ text }) => text)).toEqual([]);
  });

  it('keeps the test doubles out of production code: no folder imports testing/, whose only user is its entry', () => {
    // testing/ is walked and leans on the folders below it, so the filter below has something to look at.
    expect(crossings.some(({ from }) => from === 'testing')).toBe(true);
    expect(crossings.filter(({ to }) => to === 'testing').map(({ text }) => text)).toEqual([]);
  });

  it('has backupstats/pushgateway, /textfile, /s3, /http and /azure import only the core and the floor, never set-up nor each other', () => {
    const entries = ['pushgateway', 'textfile', 's3', 'http', 'azure'];
    const leaning = crossings.filter(
      ({ from, to }) => entries.includes(from) && (to === 'setup' || entries.includes(to)),
    );
    expect(leaning.map(({ text }) => text)).toEqual([]);
    expect(crossings.some(({ from, to }) => from === 'pushgateway' && to === 'base')).toBe(true);
    expect(crossings.some(({ from, to }) => from === 'textfile' && to === 'base')).toBe(true);
  });
});
