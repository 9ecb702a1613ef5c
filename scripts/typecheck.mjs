#!/usr/bin/env node
// `pnpm typecheck`: every package, the tests and the ```ts blocks of the README and docs, in one process.
// Each project keeps its tsconfig.json (so `tsc --noEmit` in one package still works) and gets a program of its
// own, with its own options; the programs share one compiler host that keeps every file it parsed, so the
// declarations they all read (Node's, OpenTelemetry's, the built library's) are read and parsed once, not once per
// project in a tsc process of its own. Exits 1 on any error.
import { join, relative } from 'node:path';
import ts from 'typescript';
import { checkDocsTypes } from './check-docs-types.mjs';
import { sharingHost } from './sharing-host.mjs';

const root = join(import.meta.dirname, '..');

/** The projects, in the order their errors are reported: every package with a tsconfig.json, then the tests. */
const PROJECTS = [
  'packages/processor',
  'packages/testkit',
  'packages/examples',
  'packages/bench',
  'packages/cli',
  'test',
];

function readProject(dir) {
  const configPath = join(root, dir, 'tsconfig.json');
  const config = ts.getParsedCommandLineOfConfigFile(
    configPath,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(`${configPath}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
      },
    },
  );
  if (config === undefined) throw new Error(`cannot read ${configPath}`);
  return config;
}

const host = sharingHost(ts);
const format = {
  getCanonicalFileName: (name) => name,
  getCurrentDirectory: () => root,
  getNewLine: () => '\n',
};
let failed = 0;
for (const dir of PROJECTS) {
  const config = readProject(dir);
  const program = ts.createProgram({
    rootNames: config.fileNames,
    options: { ...config.options, noEmit: true },
    projectReferences: config.projectReferences,
    host,
  });
  const diagnostics = [...config.errors, ...ts.getPreEmitDiagnostics(program)];
  if (diagnostics.length > 0) process.stderr.write(ts.formatDiagnostics(diagnostics, format));
  failed += diagnostics.length;
  console.log(
    `${dir}: ${config.fileNames.length} files, ${diagnostics.length === 0 ? 'no errors' : `${diagnostics.length} error(s)`}`,
  );
}

const docs = checkDocsTypes([], host);
for (const text of docs.errors) console.error(text);
console.log(docs.summary);
failed += docs.errors.length;

if (failed > 0)
  console.error(`typecheck: ${failed} error(s) (paths relative to ${relative(process.cwd(), root) || '.'})`);
process.exit(failed === 0 ? 0 : 1);
