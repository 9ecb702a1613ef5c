#!/usr/bin/env node
// Type-checks every ```ts block of README.md, packages/*/README.md and docs/*.md (or of the Markdown files given as
// arguments) against the built package, so that the examples cannot drift from the API. Each block becomes a
// module of its own in a .docs-typecheck-XXXX/ folder of the workspace (gitignored, removed afterwards), checked
// with the options of tsconfig.docs.json; errors are reported at the Markdown file's line.
// A block that is deliberately a fragment is marked on the line just above its fence with
//   <!-- typecheck: skip (the reason) -->
// Run after the build (`pnpm typecheck` does). Exits 1 on any error.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(import.meta.dirname, '..');
/**
 * TypeScript, loaded when the first block is checked: loading it costs about a second of CPU, which a page refused
 * for a badly written marker never needs.
 */
const typescript = () => createRequire(import.meta.url)('typescript');
const SKIP = /^<!--\s*typecheck:\s*skip\b.*\(.+\)\s*-->$/;
const FENCE = /^```(\w*)(.*)$/;

/** The Markdown files whose examples are checked. */
function markdownFiles() {
  const inDir = (dir) =>
    readdirSync(join(root, dir), { withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith('.md'))
      .map((entry) => join(dir, entry.name));
  const packages = readdirSync(join(root, 'packages'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => inDir(join('packages', entry.name)).filter((file) => file.endsWith('README.md')));
  return ['README.md', ...packages, ...inDir('docs')];
}

/** The ```ts blocks of one file: where the code starts (1-based line of its first line), the code, skipped or not. */
function blocksOf(file) {
  const lines = readFileSync(resolve(root, file), 'utf8').split('\n');
  const blocks = [];
  for (let i = 0; i < lines.length; i++) {
    const fence = FENCE.exec(lines[i] ?? '');
    if (fence === null) continue;
    const end = lines.findIndex((line, j) => j > i && /^```\s*$/.test(line));
    if (end === -1) throw new Error(`${file}:${i + 1}: code block never closed`);
    const language = fence[1];
    if (language === 'ts' || language === 'typescript') {
      const previous = (lines[i - 1] ?? '').trim();
      if (previous.startsWith('<!-- typecheck') && !SKIP.test(previous)) {
        throw new Error(`${file}:${i}: write the marker as <!-- typecheck: skip (why this block is a fragment) -->`);
      }
      blocks.push({ file, line: i + 2, code: lines.slice(i + 1, end).join('\n'), skipped: SKIP.test(previous) });
    }
    i = end;
  }
  return blocks;
}

/**
 * Type-checks the ```ts blocks of the given Markdown files (workspace-relative; every README and docs page when
 * none), with `host` when given (scripts/typecheck.mjs shares one among its programs). Returns the errors, at their
 * Markdown lines, and the summary line.
 */
export function checkDocsTypes(given = [], host = undefined) {
  const blocks = (given.length > 0 ? given : markdownFiles()).flatMap(blocksOf);
  // Inside the workspace, so that `backupstats` and the OpenTelemetry packages resolve as in an application.
  const outDir = mkdtempSync(join(root, '.docs-typecheck-'));
  /** Generated file → its block. */
  const sources = new Map();
  for (const block of blocks) {
    if (block.skipped) continue;
    const name = join(outDir, `${block.file.replaceAll(/[/\\.]/g, '_')}.L${block.line}.ts`);
    // `export {}` makes every block a module of its own, so that names never clash between blocks.
    writeFileSync(name, `${block.code}\nexport {};\n`);
    sources.set(name, block);
  }

  /** Errors as [file, line, text], reported in the order of the files. */
  const errors = [];
  try {
    const ts = typescript();
    const configPath = join(root, 'tsconfig.docs.json');
    const config = ts.getParsedCommandLineOfConfigFile(
      configPath,
      {},
      {
        ...ts.sys,
        onUnRecoverableConfigFileDiagnostic: (d) => {
          throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
        },
      },
    );
    if (config === undefined) throw new Error(`cannot read ${configPath}`);
    const program = ts.createProgram({ rootNames: [...sources.keys()], options: config.options, host });
    for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
      const message = `error TS${diagnostic.code}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
      if (diagnostic.file === undefined || diagnostic.start === undefined) {
        errors.push(['', 0, message]);
        continue;
      }
      const { line, character } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
      const block = sources.get(diagnostic.file.fileName);
      // An error outside the blocks (in the package's types, say) is reported where it is.
      const [file, at] =
        block === undefined ? [relative(root, diagnostic.file.fileName), line + 1] : [block.file, block.line + line];
      errors.push([file, at, `${file}:${at}:${character + 1} ${message}`]);
    }
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
  errors.sort((a, b) => a[0].localeCompare(b[0]) || a[1] - b[1]);

  const files = new Set(blocks.map((block) => block.file)).size;
  const skipped = blocks.filter((block) => block.skipped).length;
  const summary =
    `docs: ${sources.size} TypeScript blocks of ${files} Markdown files type-checked against the built package` +
    `${skipped > 0 ? ` (${skipped} skipped, marked as fragments)` : ''}: ${errors.length === 0 ? 'no errors' : `${errors.length} errors`}`;
  return { errors: errors.map(([, , text]) => text), summary };
}

/**
 * The command: checks the Markdown files given (paths from the current folder; every README and docs page when
 * none), writes each error to `stderr` and the summary to `stdout`, and returns the exit code: 1 on any error.
 * `host` as for {@link checkDocsTypes}.
 */
export function main(args, { host = undefined, stdout = process.stdout, stderr = process.stderr } = {}) {
  const { errors, summary } = checkDocsTypes(
    args.map((file) => relative(root, resolve(file))),
    host,
  );
  for (const text of errors) stderr.write(`${text}\n`);
  stdout.write(`${summary}\n`);
  return errors.length === 0 ? 0 : 1;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exit(main(process.argv.slice(2)));
}
