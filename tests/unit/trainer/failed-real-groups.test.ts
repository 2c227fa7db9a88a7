// Real-executed groups in which no program ran: counted over a run, with the streak of such steps at
// its end (how the two collapsed controls runs ended), and reported beside the collapses table.
import { describe, expect, it } from 'vitest';
import { failedRealGroups } from '../../../src/training/failed-real-groups.ts';
import { renderReport } from '../../../src/experiments/report.ts';
import type { TrimmedGroupRecord, TrimmedStepRecord } from '../../../src/experiments/run-result.ts';
import type { ExecutionStatus } from '../../../src/training/ports.ts';
import { cost, evaluation, run } from '../experiments/run-fixtures.ts';

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

describe('failedRealGroups', () => {
  it('counts the executed groups where nothing ran, and ignores world-model-scored ones', () => {
    expect(failedRealGroups([step(ok, null, null), step(dead, null), step(null, ok)])).toEqual({ executed: 3, noneRan: 1, endStreak: 0, endStreakStart: 3 });
  });

  it('counts the streak of steps at the end in which every executed group failed', () => {
    expect(failedRealGroups([step(ok), step(dead), step(ok), step(dead, null), step(dead)])).toEqual({ executed: 5, noneRan: 3, endStreak: 2, endStreakStart: 3 });
    // one group that runs in the last step breaks the streak, even beside a dead one
    expect(failedRealGroups([step(dead), step(dead, ok)])).toMatchObject({ endStreak: 0, endStreakStart: 2 });
    // a step that executed nothing (an accumulator's step without anchors) neither breaks a streak nor extends it
    expect(failedRealGroups([step(ok), step(dead), step(null), step(dead)])).toEqual({ executed: 3, noneRan: 2, endStreak: 2, endStreakStart: 1 });
    expect(failedRealGroups([step(dead), step(null)])).toEqual({ executed: 1, noneRan: 1, endStreak: 1, endStreakStart: 0 });
    expect(failedRealGroups([])).toEqual({ executed: 0, noneRan: 0, endStreak: 0, endStreakStart: 0 });
  });

  it('reads run files written before statuses were recorded as having no executed group', () => {
    expect(failedRealGroups([{ groups: [{} as TrimmedGroupRecord] }])).toEqual({ executed: 0, noneRan: 0, endStreak: 0, endStreakStart: 1 });
  });

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
