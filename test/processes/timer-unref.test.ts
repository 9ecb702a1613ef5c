// A process that records and returns must exit by itself: the flush timer is unref'd. Here because it needs a child
// process of the built library.
import { startNode } from '@backupstats/testkit/node-process';
import { expect, onTestFinished } from 'vitest';
import { it } from '../support/fixtures.js';

it('the flush timer never keeps a process alive', async () => {
  // A child that records and returns must exit on its own, with the timer armed and records pending.
  const program = `
    const { MeterProvider } = require('@opentelemetry/sdk-metrics');
    const { createBackupStats } = require('backupstats');
    const stats = createBackupStats({ meterProvider: new MeterProvider(), flushIntervalMillis: 50 });
    stats.backup.scope({ operation: 'Source:Read' }).timedIncrementBytes(1, 1);
    console.log('recorded');
  `;
  const child = startNode(['-e', program], { cwd: import.meta.dirname });
  onTestFinished(() => child.kill());
  expect(await child.exited, child.stderr()).toEqual({ code: 0, signal: null });
  expect(child.stdout().trim()).toBe('recorded');
});
