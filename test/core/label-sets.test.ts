// Two label sets that differ are two series, whatever characters their values hold; labels that cannot be right
// (an unknown name, a value that is not text) are reported once through diag, and scope() refuses what is not labels.
import { createBackupStats } from 'backupstats';
import { describe, expect } from 'vitest';
import { it } from '../support/fixtures.js';
import { valuesByKey } from '../support/harness.js';

describe('label sets and series', () => {
  it('never folds two different label sets into one series, whatever their values hold', async ({ harness }) => {
    const stats = createBackupStats({ meterProvider: harness.provider });
    const sets = [
      { component: 'a\u0000b', implementation: 'c' },
      { component: 'a', implementation: 'b\u0000c' },
      { component: 'a\u0000b\u0000c' },
      { component: 'a', implementation: 'b', operation: 'c' },
      { component: '1:a', implementation: 'b' },
      { component: '1', implementation: ':ab' },
    ];
    const handles = sets.map((labels) => stats.backup.scope(labels));
    expect(new Set(handles).size).toBe(sets.length);
    handles.forEach((handle, i) => {
      handle.timedIncrementBytes(10 ** i, 0);
    });
    await stats.shutdown();
    const values = valuesByKey(await harness.collect());
    sets.forEach((labels, i) => {
      const key = `backup.bytes{${labels.component},${labels.implementation ?? '-'},${labels.operation ?? '-'}}`;
      expect(values.get(key), key).toBe(10 ** i);
    });
  });
});

describe('labels that cannot be right', () => {
  it('says once that a label name is unknown, and keeps the known ones', async ({ harness, diagnostics }) => {
    const stats = createBackupStats({ meterProvider: harness.provider });
    const handle = stats.backup.scope({ component: 'C', opration: 'Source:Read' } as never);
    stats.backup.scope({ implementaton: 'S3' } as never);
    expect(handle).toBe(stats.backup.scope({ component: 'C' }));
    const said = diagnostics.messages.filter((m) => m.includes('unknown label'));
    expect(said).toHaveLength(1);
    expect(said[0]).toContain('"opration"');
    expect(said[0]).toContain('component, implementation and operation');
    await stats.shutdown();
  });

  it('says once that a label value is not a string, and records it as its text', async ({ harness, diagnostics }) => {
    const stats = createBackupStats({ meterProvider: harness.provider });
    stats.backup.scope({ component: { name: 'x' } } as never).timedIncrement(1);
    stats.backup.scope({ operation: 7 } as never).timedIncrement(1);
    const said = diagnostics.messages.filter((m) => m.includes('not a string'));
    expect(said).toHaveLength(1);
    expect(said[0]).toContain('component');
    await stats.shutdown();
    const values = valuesByKey(await harness.collect());
    expect(values.get('backup.operations{-,-,7}')).toBe(1);
  });

  it('the whole message of an unknown label: its name cut at 64 characters', async ({ diagnostics }) => {
    const stats = createBackupStats();
    const name = `${'n'.repeat(64)}overflowing`;
    stats.backup.scope({ [name]: 'x' } as never);
    expect(diagnostics.messages).toEqual([
      `backupstats: scope() was given the label "${'n'.repeat(64)}", which is not one of component, implementation and operation; it is ignored, as are any later unknown labels`,
    ]);
    await stats.shutdown();
  });

  it.for([
    ['component', 42, 'number', '42'],
    ['implementation', true, 'boolean', 'true'],
    ['operation', 10n ** 70n, 'bigint', '1'.padEnd(64, '0')],
  ] as const)(
    'the whole message of a %s label that is not a string: its type and its text cut at 64 characters',
    async ([name, value, type, text], { diagnostics }) => {
      const stats = createBackupStats();
      stats.restore.scope({ [name]: value } as never);
      expect(diagnostics.messages).toEqual([
        `backupstats: scope() was given a ${name} label that is not a string but a value of type ${type}; it is recorded as its text (${JSON.stringify(text)}), as are any later ones`,
      ]);
      await stats.shutdown();
    },
  );

  it.each([
    ['null', null, 'null'],
    ['a number', 5, '5'],
    ['a string', 'Source:Read', '"Source:Read"'],
    ['a function', () => ({ component: 'C' }), 'a function'],
    ['an array', ['a'], 'an instance of Array'],
  ])('scope(%s) throws a TypeError naming what it got and what it accepts', async (_case, labels, shown) => {
    const stats = createBackupStats({ meterProvider: undefined });
    expect(() => stats.backup.scope(labels as never)).toThrow(
      new TypeError(
        `backupstats: scope labels is ${shown}; accepted: an object with component, implementation and operation, each a string (or left out)`,
      ),
    );
    await stats.shutdown();
  });
});
