/**
 * Copies every entry of `dir` but node_modules and the tests' temporary `.run-*` copies into a new folder of the
 * system's temporary folder, for `npm pack`, and returns its path; the caller removes it.
 */
export function copyForPacking(dir: string): string;
