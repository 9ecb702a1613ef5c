// The `backupstats` command (packages/cli/src): no import cycle between its files; the library only through its
// public entry points, as an installed package would see it; and nothing of the library or the OpenTelemetry SDK
// loaded before a `meter` inside a run starts copying (it reports to its run, so it needs neither, and a pipeline
// stage that starts fast delays its pipeline less).
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import madge from 'madge';
import { beforeAll, describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../packages/cli/src/', import.meta.url));
const TSCONFIG = fileURLToPath(new URL('../../packages/cli/tsconfig.json', import.meta.url));

/** Every `import ... from '...'` of a file that stays in the built code (type-only imports are erased). */
function staticImports(file: string): string[] {
  const text = readFileSync(`${SRC}${file}`, 'utf8');
  return [...text.matchAll(/^import (?!type )[^;]*? from '([^']+)';/gms)].map((match) => match[1] as string);
}

/** Every specifier a file imports, statically or with `import()`, type-only imports included. */
function allImports(file: string): string[] {
  const text = readFileSync(`${SRC}${file}`, 'utf8');
  return [...text.matchAll(/(?:from |import\()'([^']+)'/g)].map((match) => match[1] as string);
}

let graph: Record<string, string[]>;
let cycles: string[][];

beforeAll(async () => {
  const wasSilenced = process.noDeprecation === true;
  process.noDeprecation = true;
  const result = await madge(SRC, {
    fileExtensions: ['ts'],
    tsConfig: TSCONFIG,
    detectiveOptions: { ts: { skipTypeImports: false } },
  }).finally(() => {
    process.noDeprecation = wasSilenced;
  });
  graph = result.obj();
  cycles = result.circular();
}, 60_000);

describe('packages/cli/src', () => {
  it('has no import cycle between files', () => {
    expect(Object.keys(graph)).toEqual(expect.arrayContaining(['cli.ts', 'run.ts', 'meter.ts', 'stages.ts']));
    expect(cycles).toEqual([]);
  });

  it('imports only Node.js and the public entry points of backupstats', () => {
    const files = readdirSync(SRC).filter((file) => file.endsWith('.ts'));
    const outside = files.flatMap((file) =>
      allImports(file)
        .filter((specifier) => !specifier.startsWith('./') && !specifier.startsWith('node:'))
        .filter((specifier) => !['backupstats', 'backupstats/setup'].includes(specifier))
        .map((specifier) => `${file} -> ${specifier}`),
    );
    expect(outside).toEqual([]);
  });

  it('loads nothing of the library before a meter starts copying: the command and its worker import it only on demand', () => {
    // What `meter` loads before it copies: the command's entry, the worker's, and every file they import statically.
    const loaded = new Set<string>();
    const visit = (file: string) => {
      if (loaded.has(file)) return;
      loaded.add(file);
      for (const specifier of staticImports(file)) {
        if (specifier.startsWith('./')) visit(specifier.slice(2).replace(/\.js$/, '.ts'));
      }
    };
    visit('cli.ts');
    visit('meter-worker.ts');
    expect(loaded.size).toBeGreaterThan(3);
    const library = [...loaded].flatMap((file) =>
      staticImports(file)
        .filter((specifier) => specifier.startsWith('backupstats') || specifier.startsWith('@opentelemetry'))
        .map((specifier) => `${file} -> ${specifier}`),
    );
    expect(library).toEqual([]);
  });
});
