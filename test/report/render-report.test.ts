// The report page as renderReport writes it: the data as JSON in its script element, read back exactly whatever
// the labels hold (no value can end the element), and a policy that lets the page load nothing.
import { createBackupStats } from 'backupstats';
import { type BackupStatsReport, renderReport, reportData } from 'backupstats/report';
import { describe, expect } from 'vitest';
import { it } from '../support/fixtures.js';

const DATA_ELEMENT = /<script type="application\/json" id="backupstats-report">([^<]*)<\/script>/;

describe('renderReport', () => {
  it('carries the data whole, labels that would end its script element included, and loads nothing', async ({
    harness,
  }) => {
    const stats = createBackupStats({ meterProvider: harness.provider });
    stats.backup
      .scope({
        component: '</script><script>alert(1)</script>',
        implementation: '<!-- a <b>',
        operation: 'Source:Read',
      })
      .timedIncrementBytes(10, 1);
    const data = reportData(stats);
    const page = renderReport(data);
    const json = DATA_ELEMENT.exec(page)?.[1];
    expect(json).toBeDefined();
    expect(JSON.parse(json as string) as BackupStatsReport).toEqual(data);
    expect(json).toContain('\\u003c/script>\\u003cscript>alert(1)\\u003c/script>');
    expect(page.match(/<script/g)).toHaveLength(3);
    expect(page).toContain(
      `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:">`,
    );
    expect(page.startsWith('<!doctype html>\n<html lang="en">')).toBe(true);
    await stats.shutdown();
  });
});
