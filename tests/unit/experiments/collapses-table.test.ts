// The report's collapses table: beside the held-out collapses, the real-executed groups in which no
// program ran (summed over seeds) and the seeds that end in such steps (training/failed-real-groups.ts).
import { describe, expect, it } from 'vitest';
import { renderReport } from '../../../src/experiments/report.ts';
import type { TrimmedGroupRecord, TrimmedStepRecord } from '../../../src/experiments/run-result.ts';
import type { ExecutionStatus } from '../../../src/training/ports.ts';
import { cost, evaluation, run } from './run-fixtures.ts';

/** A step of groups: a list of statuses is a real-executed group, null a world-model-scored one. */
function step(...groups: (ExecutionStatus[] | null)[]): TrimmedStepRecord {
  const zeros = [0, 0, 0, 0];
  return {
    groups: groups.map((statuses): TrimmedGroupRecord => ({
      taskId: 'a', anchor: statuses !== null, programTokens: [9, 9, 9, 9], programChars: [30, 30, 30, 30], stopped: [true, true, true, true], wmScores: null, wmRewards: null,
      realScores: statuses && statuses.map((x) => (x === 'ok' ? 0.5 : 0.1)), statuses, rewards: zeros, advantages: zeros, coefficients: zeros,
    })),
    fusion: { wA: 1 },
  } as TrimmedStepRecord;
}
const ok: ExecutionStatus[] = ['ok', 'error', 'ok', 'ok'];
const dead: ExecutionStatus[] = ['error', 'error', 'timeout', 'error'];

describe('the collapses table', () => {
  it("puts the sums and the collapsed seeds in the report's collapses table", () => {
    const trained = (seed: number, steps: TrimmedStepRecord[]) => {
      const r = run('paper-anchors-only', seed, 0.5, cost({ policySampling: 1000, worldModel: 0, sandbox: 1000, policyUpdate: 0 }, 2000, 10, 0));
      r.records = steps;
      r.curve = [{ step: 5, trainingBusyMs: 0, avgAtK: 0.5, evaluation: evaluation(0.5) }];
      return r;
    };
    const md = renderReport({ title: 't', runs: [trained(3, [step(ok), step(dead), step(dead)]), trained(4, [step(ok), step(ok), step(ok)])], presets: ['paper-anchors-only'] });
    expect(md).toContain('| real groups where no program ran | seeds ending with no real program running |');
    expect(md).toMatch(/\| paper-anchors-only \| 2 \|[^\n]*\| 2 of 6 \(33\.3%\) \| 3 \(last 2 steps\) \|/);
  });
});
