// What scripts/check-install.mjs takes from the READMEs: their install commands and their examples, compiled to ES
// modules and CommonJS.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { transformSync } from 'esbuild';

/** TypeScript, loaded by {@link compile} on first use: loading it costs about a second of CPU. */
const typescript = () => createRequire(import.meta.url)('typescript');

/** A failure of the check: reported once the temporary folders are removed. */
export class CheckFailed extends Error {}
export function fail(message) {
  throw new CheckFailed(message);
}

/** A README's ``` blocks with their language and the `## ` section (not `###` subsection) they belong to. */
export function blocksOf(root, file) {
  const lines = readFileSync(join(root, file), 'utf8').split('\n');
  const blocks = [];
  let section = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const heading = /^(#{2,3}) (.*)$/.exec(line);
    if (heading !== null) section = heading[1] === '##' ? heading[2].trim() : `${section} > ${heading[2].trim()}`;
    const fence = /^```(\w*)/.exec(line);
    if (fence === null) continue;
    const end = lines.findIndex((l, j) => j > i && /^```\s*$/.test(l));
    blocks.push({ file, line: i + 2, language: fence[1], section, code: lines.slice(i + 1, end).join('\n') });
    i = end;
  }
  return blocks;
}

/** The install command of each of `lines` (found by its `marker`), from the `sh` block of the Install section. */
export function installCommands(root, file, lines) {
  const block = blocksOf(root, file).find((b) => b.section === 'Install' && b.language === 'sh');
  if (block === undefined) fail(`${file} has no sh block in its "## Install" section`);
  const code = block.code.split('\n');
  return lines.map((line) => {
    const at = code.findIndex((l) => l.startsWith('#') && line.marker.test(l));
    const command = code[at + 1];
    if (at === -1 || command === undefined || !command.startsWith('npm install backupstats ')) {
      fail(`${file}:${block.line}: no "# … ${line.marker.source} …" comment followed by "npm install backupstats …"`);
    }
    return command;
  });
}

/** The example as an ES module and as a CommonJS module (top-level await is ESM only: the body goes in a function). */
export function compile(example) {
  const ts = typescript();
  const source = ts.createSourceFile('example.ts', example.code, ts.ScriptTarget.ES2022, true);
  const imports = source.statements.filter(ts.isImportDeclaration).map((s) => s.getFullText());
  const body = source.statements.filter((s) => !ts.isImportDeclaration(s)).map((s) => s.getFullText());
  const options = (module) => ({
    compilerOptions: { module, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: false },
  });
  const wrapped = `${imports.join('')}\n(async () => {${body.join('')}\n})().catch((error) => {\n  console.error(error);\n  process.exitCode = 1;\n});\n`;
  return {
    mjs: ts.transpileModule(example.code, options(ts.ModuleKind.ESNext)).outputText,
    cjs: ts.transpileModule(wrapped, options(ts.ModuleKind.CommonJS)).outputText,
  };
}

/**
 * The example as an ES module, for the tests that run a docs page's program as written: its types stripped by
 * esbuild, as {@link compile}'s `mjs` strips them with TypeScript (imports used only as types are dropped), without
 * loading TypeScript (about a second of CPU in each test file).
 */
export function esModule(example) {
  return transformSync(example.code, { loader: 'ts', format: 'esm', target: 'es2022' }).code;
}
