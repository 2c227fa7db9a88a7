// The metrics the authors' presets add to a run's summary: the ladder beside the percentile, the
// mean over the checkpoints of --eval-every, and the authors' anchor weight.
import { describe, expect, it } from 'vitest';
import { runMetrics } from '../../../src/experiments/aggregate.ts';
import { cost, evaluation, run } from './run-fixtures.ts';

describe("the authors' presets' metrics", () => {
  it('read the ladder, the checkpoint mean and the authors\' weight where a run has them, and nothing where it does not', () => {
    const r = run('paper-wmrl', 1, 0.4, cost({ policySampling: 1, worldModel: 1, sandbox: 1, policyUpdate: 1 }, 10, 4, 2));
    expect(runMetrics(r).heldOutLadder).toBeUndefined();
    expect(runMetrics(r).heldOutCheckpointMean).toBeUndefined();
    r.evaluation = { ...evaluation(0.4), ladderAvgAtK: 0.55 };
    r.curve = [0.2, 0.3, 0.4].map((avg, i) => ({ step: 5 * (i + 1), trainingBusyMs: 0, avgAtK: avg, evaluation: evaluation(avg) }));
    const fusion = (w?: number) => ({ mode: 'anchor-weight' as const, wA: 0.1, wW: 0.9, r: null, lambda: 1, vA: null, vW: null, weightsReused: false, ...(w === undefined ? {} : { anchorWeight: w }) });
    r.records = [1, 2, 3].map((w) => ({ fusion: fusion(w), groups: [] })) as unknown as typeof r.records;
    const m = runMetrics(r);
    expect(m.heldOutLadder).toBeCloseTo(55, 12);
    expect(m.heldOutCheckpointMean).toBeCloseTo(30, 12);
    expect(m.meanAuthorsWeight).toBeCloseTo(2, 12);
  });
});
