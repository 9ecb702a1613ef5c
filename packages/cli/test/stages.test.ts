// The bottleneck rule for a pipeline of N stages (docs/shell.md): each stage's busy time from the waits of the meters
// on either side of it, the meters put in pipeline order by their first byte.
import { describe, expect, it } from 'vitest';
import type { MeterReport } from '../src/channel.js';
import { busiestStage, DESTINATION_OPERATION, PipelineStages, pipelineOrder, stagesOf } from '../src/stages.js';

/** A meter's report; `at` orders it (its first byte's time), `waits` are [input, output] ms. */
function meter(operation: string, at: number | null, [inputWaitMs, outputWaitMs]: [number, number], bytes = 1000) {
  return {
    id: `${operation}@${at}`,
    operation,
    at: 0,
    firstByteAt: at,
    startedAt: 1,
    reads: bytes === 0 ? 0 : 10,
    bytesIn: bytes,
    inputWaitMs,
    writes: bytes === 0 ? 0 : 12,
    bytesOut: bytes,
    outputWaitMs,
    done: true,
  } satisfies MeterReport;
}

const busy = (meters: MeterReport[]) =>
  Object.fromEntries(stagesOf(meters).map((stage) => [stage.operation, stage.busyMs]));

describe('the stages of a pipeline from its meters', () => {
  it('names each stage after the meter it writes into and adds the destination after the last meter', () => {
    const stages = stagesOf([meter('Source:Read', 1, [5, 900]), meter('Compressor:Write', 2, [880, 10], 400)]);
    expect(stages.map((stage) => [stage.operation, stage.bytes, stage.count])).toEqual([
      ['Source:Read', 1000, 10],
      ['Compressor:Write', 400, 10],
      [DESTINATION_OPERATION, 400, 12],
    ]);
  });

  it('a slow middle stage: both neighbours wait on it, so it is the busiest', () => {
    const meters = [meter('Source:Read', 1, [5, 900]), meter('Compressor:Write', 2, [880, 10])];
    expect(busy(meters)).toEqual({ 'Source:Read': 5, 'Compressor:Write': 880, [DESTINATION_OPERATION]: 10 });
    expect(busiestStage(stagesOf(meters))?.operation).toBe('Compressor:Write');
  });

  it('a slow destination: the last meter waits on its output, the stage before it is not starved', () => {
    const meters = [meter('Source:Read', 1, [5, 950]), meter('Compressor:Write', 2, [40, 930])];
    expect(busiestStage(stagesOf(meters))?.operation).toBe(DESTINATION_OPERATION);
    expect(busy(meters)['Compressor:Write']).toBe(40);
  });

  it('a slow source starves every stage after it, but only the source is busy by the rule', () => {
    // Every meter waits on its input; none waits on its output.
    const meters = [
      meter('Source:Read', 1, [950, 3]),
      meter('Compressor:Write', 2, [940, 2]),
      meter('Encryptor:Write', 3, [945, 1]),
    ];
    expect(busy(meters)).toEqual({
      'Source:Read': 950,
      'Compressor:Write': 3,
      'Encryptor:Write': 2,
      [DESTINATION_OPERATION]: 1,
    });
  });

  it('five stages: the one between a meter that waits on output and one that waits on input is the bottleneck', () => {
    // Before the slow stage the meters wait on their outputs, after it on their inputs.
    const meters = [
      meter('Source:Read', 1, [2, 990]),
      meter('Compressor:Write', 2, [3, 985]),
      meter('Encryptor:Write', 3, [970, 4]),
      meter('Uploader:Write', 4, [960, 2]),
    ];
    expect(busy(meters)).toEqual({
      'Source:Read': 2,
      'Compressor:Write': 3,
      'Encryptor:Write': 970,
      'Uploader:Write': 4,
      [DESTINATION_OPERATION]: 2,
    });
  });

  it('orders the meters by their first byte, whatever order they reported in; a meter without bytes goes last', () => {
    const first = meter('Source:Read', 100, [1, 1]);
    const second = meter('Compressor:Write', 250, [1, 1]);
    const empty = { ...meter('Idle:Write', null, [0, 0], 0), startedAt: 0 };
    expect(pipelineOrder([empty, second, first]).map((m) => m.operation)).toEqual([
      'Source:Read',
      'Compressor:Write',
      'Idle:Write',
    ]);
  });

  it('while the pipeline runs it leaves the destination out, as the last meter is not known yet', () => {
    const stages = stagesOf([meter('Source:Read', 1, [5, 900])], false);
    expect(stages.map((stage) => stage.operation)).toEqual(['Source:Read']);
  });

  it('no meters, no stages; stages that were never busy name no bottleneck', () => {
    expect(stagesOf([])).toEqual([]);
    expect(busiestStage(stagesOf([meter('Source:Read', 1, [0, 0])]))).toBeUndefined();
  });
});

describe('the stages of a running pipeline, interval by interval', () => {
  /** A report at time `at` with the waits so far. */
  const at = (m: MeterReport, time: number, [inputWaitMs, outputWaitMs]: [number, number]) => ({
    ...m,
    at: time,
    inputWaitMs,
    outputWaitMs,
  });
  const source = meter('Source:Read', 1, [0, 0]);
  const compressor = meter('Compressor:Write', 2, [0, 0]);
  const busyOf = (stages: PipelineStages, meters: MeterReport[]) =>
    stages.update(meters, true).find((stage) => stage.operation === 'Compressor:Write')?.busyMs;

  it('counts a middle stage busy only while both neighbours wait on it at the same time', () => {
    const stages = new PipelineStages();
    // 0-300 ms: the second meter waits for input while the first is still starting, not waiting on its output.
    busyOf(stages, [at(source, 0, [0, 0]), at(compressor, 0, [0, 0])]);
    busyOf(stages, [at(source, 300, [0, 0]), at(compressor, 300, [300, 0])]);
    // 300-1300 ms: the destination bounds the pipeline; both meters wait on their outputs.
    const busy = busyOf(stages, [at(source, 1300, [5, 990]), at(compressor, 1300, [310, 980])]);
    // Over the totals the min would have been 310 ms: the start-up wait would have counted.
    expect(busy).toBeCloseTo(10, 6);
  });

  it('lines up reports made at different times: a slow middle stage is busy all along', () => {
    const stages = new PipelineStages();
    busyOf(stages, [at(source, 0, [0, 0]), at(compressor, 0, [0, 0])]);
    // The meters report half an interval apart, each waiting on the compressor 90 % of the time.
    busyOf(stages, [at(source, 500, [0, 450]), at(compressor, 0, [0, 0])]);
    busyOf(stages, [at(source, 500, [0, 450]), at(compressor, 750, [675, 0])]);
    busyOf(stages, [at(source, 1000, [0, 900]), at(compressor, 750, [675, 0])]);
    const busy = busyOf(stages, [at(source, 1000, [0, 900]), at(compressor, 1250, [1125, 0])]);
    // Summed up to 1000 ms, where both have reported: 90 % of it.
    expect(busy).toBeCloseTo(900, 6);
  });
});
