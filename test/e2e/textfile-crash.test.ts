// A job killed at any moment, in the middle of a write included, never leaves node_exporter a partial file: a job that
// writes its 530 kB textfile (100 scopes with histograms) back to back is SIGKILLed again and again at random moments
// while node_exporter (Debian's, textfile collector only) is read every 100 ms and a real Prometheus scrapes it. Every
// read sees the whole file (all 100 series of each family) or no file yet, never an error; a kill leaves at most a
// temporary file whose name node_exporter does not read, and the next run removes it.
//
// The file's size is not the point: a kill lands while the write serializes or between the temporary file's creation
// and its rename, whatever the size (the fsync before the rename keeps that window open), and a partial file left by a
// kill would stay until the next job's first write, a second or more later, seen by reads 100 ms apart. Each read of
// node_exporter costs it and the test in proportion to the file, so 100 scopes rather than 300 and a read every
// 100 ms rather than back to back cut the CPU of the test by more than half.
import { readdirSync, watch } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect } from 'vitest';
import { it } from '../support/fixtures.js';
import { nodeExporterBinary } from '../support/node-exporter.js';
import { prometheusBinary, requireE2E } from '../support/prometheus.js';
import type { Sample } from '../support/pushgateway/exposition.js';

const writer = fileURLToPath(new URL('../fixtures/textfile-writer.mjs', import.meta.url));
const SCOPES = 100;
const KILLS = 8;

/** What one read of node_exporter says about the job's file: its error gauge, and how many series of each family. */
function reading(samples: readonly Sample[]) {
  const ofJob = (name: string, more: (sample: Sample) => boolean = () => true) =>
    samples.filter((s) => s.name === name && s.labels.service_name === 'crash' && more(s)).length;
  return {
    error: samples.find((s) => s.name === 'node_textfile_scrape_error')?.value,
    operations: ofJob('backup_operations_total'),
    bytes: ofJob('backup_bytes_total'),
    histograms: ofJob('backup_operation_duration_count'),
    infBuckets: ofJob('backup_operation_duration_bucket', (s) => s.labels.le === '+Inf'),
  };
}

describe.skipIf((!nodeExporterBinary || !prometheusBinary) && !requireE2E)('a job SIGKILLed while it writes', () => {
  // Eight jobs started and killed, each read by node_exporter and Prometheus: past 30 s on two cores under the suite.
  it(`killed ${KILLS} times at random moments of back-to-back writes: every node_exporter read is the whole file or none, node_textfile_scrape_error stays 0, and no temporary file is left after the next run`, async ({
    startNodeExporter,
    startPrometheus,
    startFixture,
  }) => {
    const node = await startNodeExporter();
    const prometheus = await startPrometheus([node.address]);
    const path = join(node.dir, 'crash.prom');
    const env = {
      OTEL_METRICS_EXPORTER: 'textfile',
      BACKUPSTATS_TEXTFILE_PATH: path,
      OTEL_SERVICE_NAME: 'crash',
      FIXTURE_SCOPES: String(SCOPES),
    };

    const readings: Array<ReturnType<typeof reading>> = [];
    let inFlight: Promise<void> | undefined;
    const sampler = setInterval(() => {
      inFlight ??= node
        .samples()
        .then((samples) => {
          readings.push(reading(samples));
        })
        .finally(() => {
          inFlight = undefined;
        });
    }, 100);

    let leftTemporaries = 0;
    try {
      for (let kill = 0; kill < KILLS; kill++) {
        const job = startFixture(writer, env);
        await job.waitForEvent('writing');
        if (kill % 2 === 0) {
          // At a random moment: most of a write is serializing, in the process's memory.
          await sleep(Math.floor(Math.random() * 300));
          job.child.kill('SIGKILL');
        } else {
          // The moment a write's temporary file appears, so that the kill lands between its creation and the rename.
          await new Promise<void>((resolve) => {
            const watcher = watch(node.dir, (_event, name) => {
              if (name === null || !name.endsWith('.tmp')) return;
              job.child.kill('SIGKILL');
              watcher.close();
              resolve();
            });
          });
        }
        expect(await job.exited(), job.stderr()).toEqual({ code: null, signal: 'SIGKILL' });
        const names = readdirSync(node.dir);
        // Only the file itself ends in .prom; the killed job's lock stays (the next run takes it over), and a write
        // cut short leaves its temporary file, named for no reader.
        expect(names.filter((name) => name.endsWith('.prom'))).toEqual(['crash.prom']);
        expect(names).toContain('.crash.prom.lock');
        for (const name of names.filter((n) => n !== 'crash.prom' && n !== '.crash.prom.lock'))
          expect(name).toMatch(/^\.crash\.prom\.\d+-\d+\.tmp$/);
        if (names.some((name) => name.endsWith('.tmp'))) leftTemporaries++;
      }
    } finally {
      clearInterval(sampler);
      await inFlight;
    }

    expect(readings.length).toBeGreaterThan(20);
    for (const read of readings) {
      expect(read.error).toBe(0);
      const whole = read.operations === SCOPES;
      expect(read, 'a read of a partial file').toEqual(
        whole
          ? { error: 0, operations: SCOPES, bytes: SCOPES, histograms: SCOPES, infBuckets: SCOPES }
          : { error: 0, operations: 0, bytes: 0, histograms: 0, infBuckets: 0 },
      );
    }
    expect(readings.filter((read) => read.operations === SCOPES).length).toBeGreaterThan(0);
    // Prometheus's scrapes over the whole time: never an error reading the directory.
    const errors = await prometheus.waitForSamples('count_over_time(node_textfile_scrape_error[1h]) > 2');
    expect(errors).toHaveLength(1);
    expect((await prometheus.query('max_over_time(node_textfile_scrape_error[1h])')).map((s) => s.value)).toEqual([0]);

    // The next run of the job removes what the killed ones left, and ends with its file alone in the directory.
    const next = startFixture(writer, { ...env, FIXTURE_WRITES: '1' });
    expect(await next.exited(), next.stderr()).toEqual({ code: 0, signal: null });
    expect(readdirSync(node.dir)).toEqual(['crash.prom']);
    console.info(
      `textfile crash test: ${leftTemporaries} of ${KILLS} kills cut a write short; ${readings.length} reads`,
    );
    // The kills timed on a temporary file's creation did cut writes short: the case that matters was exercised.
    expect(leftTemporaries).toBeGreaterThan(0);
  }, 90_000);
});
