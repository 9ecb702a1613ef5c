import { Console } from 'node:console';
import { writeSync } from 'node:fs';
import { Writable } from 'node:stream';

/**
 * Points the global console at stderr. A command's stdout is data (the copy of a meter; what the command of a run
 * prints, as in `backupstats run -- pg_dump db > db.sql`), so whatever the SDK prints (the console exporter, its
 * diagnostics) goes to stderr, written as the meter's copy writes, without opening fd 2 as a stream.
 */
export function consoleToStderr(): void {
  const stderr = new Writable({
    write(chunk: Buffer, _encoding, done) {
      writeSync(2, chunk);
      done();
    },
  });
  globalThis.console = new Console({ stdout: stderr, stderr });
}
