// bottleneckOf, as backupstats/report exports it for data of one's own: which stage it names, and the sentence that
// says what bounds the run (the stage's share from 70 %), or that nothing single does.
import { bottleneckOf, type ReportStage } from 'backupstats/report';
import { describe, expect, it } from 'vitest';

function stage(operation: string, busyShare: number, implementation = 'Builtin'): ReportStage {
  return {
    family: 'backup',
    component: 'BackupEngine',
    implementation,
    operation,
    count: 1,
    bytes: 1,
    seconds: 1,
    busyShare,
  };
}

describe('bottleneckOf', () => {
  it('names the stage with the highest share, the first of equals; none without a stage that was busy at all', () => {
    expect(
      bottleneckOf(
        [stage('Source:Read', 0.2), stage('Compressor:Write', 0.9), stage('Destination:Write', 0.5)],
        'backup',
      ),
    ).toEqual({
      family: 'backup',
      component: 'BackupEngine',
      implementation: 'Builtin',
      operation: 'Compressor:Write',
      busyShare: 0.9,
      sentence: 'Compressor:Write was busy 90 % of the run: this backup is bound by compression (BackupEngine/Builtin)',
    });
    expect(
      bottleneckOf([stage('Source:Read', 0.8, 'First'), stage('Source:Read', 0.8, 'Second')], 'backup')?.implementation,
    ).toBe('First');
    expect(bottleneckOf([stage('Source:Read', 0)], 'backup')).toBeNull();
    expect(bottleneckOf([], 'restore')).toBeNull();
  });

  it.each([
    ['Compressor:Write', 'compression'],
    ['Decompressor:Read', 'decompression'],
    ['Source:Read', 'reading its source'],
    ['Destination:Write', 'writing to its destination'],
    ['File:Read', 'file reads'],
    ['File:Write', 'file writes'],
    ['AWS:Request:Send', 'S3 requests'],
    ['HTTP:Request:Send', 'storage requests'],
    // Anything else is named as it is; a name that only contains a known one is no match.
    ['Index:Build', 'Index:Build'],
    ['My:File:Read', 'My:File:Read'],
    ['File:ReadAhead', 'File:ReadAhead'],
    ['File:Writes', 'File:Writes'],
  ])('a run bound by %s is bound by %s', (operation, words) => {
    expect(bottleneckOf([stage(operation, 0.8)], 'restore')?.sentence).toBe(
      `${operation} was busy 80 % of the run: this restore is bound by ${words} (BackupEngine/Builtin)`,
    );
  });

  it('bounds the run from a share of 70 %; several threads in the stage are said with their average', () => {
    expect(bottleneckOf([stage('Source:Read', 0.7)], 'backup')?.sentence).toBe(
      'Source:Read was busy 70 % of the run: this backup is bound by reading its source (BackupEngine/Builtin)',
    );
    expect(bottleneckOf([stage('Source:Read', 1)], 'backup')?.sentence).toBe(
      'Source:Read was busy 100 % of the run: this backup is bound by reading its source (BackupEngine/Builtin)',
    );
    // Just over one thread's worth (two operations overlapping for a moment) is not said as "1.0 threads at once".
    expect(bottleneckOf([stage('Compressor:Write', 1.02)], 'backup')?.sentence).toBe(
      'Compressor:Write was busy 102 % of the run: this backup is bound by compression (BackupEngine/Builtin)',
    );
    expect(bottleneckOf([stage('Compressor:Write', 1.05)], 'backup')?.sentence).toBe(
      'Compressor:Write was busy 105 % of the run (1.1 threads at once on average): this backup is bound by compression (BackupEngine/Builtin)',
    );
    expect(bottleneckOf([stage('Compressor:Write', 2.46)], 'backup')?.sentence).toBe(
      'Compressor:Write was busy 246 % of the run (2.5 threads at once on average): this backup is bound by compression (BackupEngine/Builtin)',
    );
  });

  it('under 70 %, says what no stage covered, at least 1 % of the run, or else that no single stage bounds it', () => {
    const busiest = 'Source:Read was busy 69 % of the run, the most of its metered stages (BackupEngine/Builtin)';
    expect(bottleneckOf([stage('Source:Read', 0.69), stage('Destination:Write', 0.3)], 'backup')?.sentence).toBe(
      `${busiest}; at least 1 % of the run went to work no metered stage measured`,
    );
    expect(bottleneckOf([stage('Source:Read', 0.69), stage('Destination:Write', 0.306)], 'backup')?.sentence).toBe(
      `${busiest}; its stages' busy time adds up to the run's length, so no single stage bounds this backup`,
    );
    expect(bottleneckOf([stage('Source:Read', 0.69), stage('Destination:Write', 0.5)], 'prune')?.sentence).toBe(
      `${busiest}; its stages' busy time adds up to the run's length, so no single stage bounds this prune`,
    );
  });
});
