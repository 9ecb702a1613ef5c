// The report's storage rows: the request attempts of every storage implementation, whichever meter recorded them
// (AWS:Request:* of backupstats/s3, HTTP:Request:* of backupstats/azure and backupstats/http), both families summed.
import { createBackupStats } from 'backupstats';
import { reportData } from 'backupstats/report';
import { describe, expect } from 'vitest';
import { it } from '../support/fixtures.js';

describe('reportData storage', () => {
  it('has one row per storage implementation with its attempts, failures, throttling, bytes and time', async ({
    harness,
  }) => {
    const stats = createBackupStats({ meterProvider: harness.provider });
    const on = (family: 'backup' | 'restore', implementation: string, operation: string) =>
      stats[family].scope({ component: 'BackupStorage', implementation, operation });
    for (let i = 0; i < 3; i++) on('backup', 'Azure', 'HTTP:Request:Send').timedIncrementBytes(1000, 20);
    on('restore', 'Azure', 'HTTP:Request:Send').timedIncrementBytes(500, 10);
    on('backup', 'Azure', 'HTTP:Request:Throttled').timedIncrementBytes(1000, 20);
    on('backup', 'S3', 'AWS:Request:Send').timedIncrementBytes(10, 5);
    on('backup', 'S3', 'AWS:Request:Failed').timedIncrementBytes(10, 5);
    // An object-level operation of the storage is not an attempt.
    on('backup', 'Azure', 'Destination:Write').timedIncrementBytes(4000, 60);
    stats.flush();

    const report = reportData(stats);
    expect(report.storage).toEqual([
      { implementation: 'Azure', attempts: 4, failed: 0, throttled: 1, bytes: 3500, seconds: 0.07 },
      { implementation: 'S3', attempts: 1, failed: 1, throttled: 0, bytes: 10, seconds: 0.005 },
    ]);
    // The S3 summary of earlier reports stays as it was.
    expect(report.s3).toMatchObject({ attempts: 1, failed: 1, throttled: 0 });
    await stats.shutdown();
  });

  it('lists the implementations with attempts only, most attempts first whatever came first; S3 summed apart', async ({
    harness,
  }) => {
    const stats = createBackupStats({ meterProvider: harness.provider });
    const on = (implementation: string, operation: string) =>
      stats.backup.scope({ component: 'BackupStorage', implementation, operation });
    on('S3', 'AWS:Request:Send').timedIncrementBytes(10, 5);
    on('S3', 'AWS:Request:Throttled').timedIncrementBytes(10, 5);
    on('S3', 'AWS:Request:Throttled').timedIncrementBytes(10, 5);
    // Throttled without any attempt sent: no row.
    on('GCS', 'HTTP:Request:Throttled').timedIncrementBytes(1, 1);
    for (let i = 0; i < 3; i++) on('Azure', 'HTTP:Request:Send').timedIncrementBytes(1000, 20);
    const report = reportData(stats);
    expect(report.storage.map((row) => [row.implementation, row.attempts])).toEqual([
      ['Azure', 3],
      ['S3', 1],
    ]);
    expect(report.s3).toEqual({ attempts: 1, failed: 0, throttled: 2, bytes: 10, seconds: 0.005 });
    await stats.shutdown();
  });

  it('is empty when no storage request was metered', async ({ harness }) => {
    const stats = createBackupStats({ meterProvider: harness.provider });
    stats.backup.scope({ operation: 'Source:Read' }).timedIncrementBytes(10, 1);
    expect(reportData(stats).storage).toEqual([]);
    await stats.shutdown();
  });
});
