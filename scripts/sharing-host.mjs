// A TypeScript compiler host whose parsed files outlive one program, for the scripts that build several programs in
// one process (scripts/typecheck.mjs, and the docs type-check test's fixture): the declarations they all read
// (Node's, OpenTelemetry's, the built library's) are read and parsed once. Safe because every program parses with
// the same target; a file is kept per module format, which decides how it is parsed.

/** A compiler host of `ts` (the `typescript` module) that keeps every source file it parsed. */
export function sharingHost(ts) {
  const host = ts.createCompilerHost({});
  const parsed = new Map();
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
    const format = typeof languageVersion === 'object' ? languageVersion.impliedNodeFormat : undefined;
    const key = `${fileName}\0${format}`;
    let file = parsed.get(key);
    if (file === undefined) {
      file = getSourceFile(fileName, languageVersion, onError, shouldCreate);
      if (file !== undefined) parsed.set(key, file);
    }
    return file;
  };
  return host;
}
