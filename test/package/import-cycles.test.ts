// The library's modules form no import cycle, type-only imports included: a cycle means two files that cannot be
// read, or changed, one without the other. madge walks the TypeScript sources as the compiler resolves them.
import { fileURLToPath } from 'node:url';
import madge from 'madge';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../packages/processor/src/', import.meta.url));
const TSCONFIG = fileURLToPath(new URL('../../packages/processor/tsconfig.json', import.meta.url));

describe('packages/processor/src', () => {
  it('has no import cycle, type-only imports included', async () => {
    // madge's TypeScript parser (typescript-estree) reads a property that it deprecated itself, and Node printed its
    // DeprecationWarning in every test run (issue 30, item 12): not ours to fix, nor the reader's to see.
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    const wasSilenced = process.noDeprecation === true;
    process.noDeprecation = true;
    const graph = await madge(SRC, {
      fileExtensions: ['ts'],
      tsConfig: TSCONFIG,
      detectiveOptions: { ts: { skipTypeImports: false } },
    }).finally(() => {
      process.noDeprecation = wasSilenced;
      process.off('warning', onWarning);
    });
    expect(warnings.map((w) => w.message)).toEqual([]);
    // A graph without its files would pass for no cycle: the barrel and the record path must be in it.
    expect(Object.keys(graph.obj())).toEqual(
      expect.arrayContaining(['index.ts', 'record/series-handle.ts', 'setup/start.ts']),
    );
    expect(graph.circular()).toEqual([]);
  });
});
