#!/usr/bin/env node
// The backup tool of the examples (tool.ts runs it). Its arguments are parsed before the tool is loaded, so that
// --help and a usage error answer at once, without loading the library, the OpenTelemetry SDK and the storages.
import { parseToolArgs, type ToolArgs, USAGE } from './cli/args.js';
import { failed as fail } from './cli/failed.js';
import { ExitCode } from './errors.js';

async function main(): Promise<number> {
  // The AWS SDK's 8-line NodeVersionSupportWarning (its releases after early 2027 need Node 22) on Node 20, in the
  // middle of the progress: the user of the demo did not cause it and cannot act on it here. Set the variable to
  // "false" to see it.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  let args: ToolArgs;
  try {
    args = parseToolArgs(process.argv.slice(2), process.env);
  } catch (error) {
    return fail(error);
  }
  if (args.help) {
    process.stdout.write(`${USAGE}\n`);
    return ExitCode.Ok;
  }
  return (await import('./tool.js')).runTool(args);
}

process.exitCode = await main();
