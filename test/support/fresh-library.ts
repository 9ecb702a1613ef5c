// The library loaded afresh, for a file whose tests need its module state new (a listener registered once per
// process) or its modules built on mocked builtins. Every in-process entry point is loaded at once, outside the
// tests (in beforeAll or afterAll): the unit tier's files share one module registry (isolate: false), and a module
// that a later test imported for the first time would run its loading code inside that test.
import { vi } from 'vitest';

/** Empties the module registry and loads the library's entry points again; returns them. */
export async function freshLibrary() {
  vi.resetModules();
  const [core, setup, report, textfile, pushgateway, worker, testing] = await Promise.all([
    import('backupstats'),
    import('backupstats/setup'),
    import('backupstats/report'),
    import('backupstats/textfile'),
    import('backupstats/pushgateway'),
    import('backupstats/worker'),
    import('backupstats/testing'),
  ]);
  return { core, setup, report, textfile, pushgateway, worker, testing };
}
