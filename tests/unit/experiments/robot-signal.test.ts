// robotSignal reads a run's non-anchor groups against the success recorded beside them: checked on
// groups built by hand where each reading is known.
import { describe, expect, it } from 'vitest';
import type { RobotGroupRecord } from '../../../src/embodied/robot-trainer.ts';
import { robotSignal } from '../../../src/experiments/robot-signal.ts';

function group(success: boolean[], rewards: number[], over: Partial<RobotGroupRecord> = {}): RobotGroupRecord {
  const mean = rewards.reduce((a, b) => a + b, 0) / rewards.length;
  const advantages = rewards.map((r) => r - mean);
  return {
    taskId: 't', initialIndex: 0, anchor: false, success, lengths: success.map(() => 1), progress: null, wmScores: null, wmRewards: null,
    realScores: null, rewards, advantages, coefficients: advantages, ...over,
  };
}
const run = (...groups: RobotGroupRecord[]) => ({ steps: [{ groups }] }) as unknown as Parameters<typeof robotSignal>[0];

describe('robotSignal', () => {
  it('a reward that orders the outcomes as the success does: every pair ranked, no advantage against it', () => {
    const s = robotSignal(run(group([true, false, true, false], [0.9, 0.1, 0.8, 0.2])));
    expect(s).toEqual({ groups: 1, successRanked: 1, wrongSign: 0, flatGroups: 0, flatWithAdvantage: 0 });
  });

  it('a reward the other way round, and one that cannot tell them apart', () => {
    expect(robotSignal(run(group([true, false], [0.1, 0.9]))).successRanked).toBe(0);
    expect(robotSignal(run(group([true, false], [0.1, 0.9]))).wrongSign).toBe(1);
    // equal rewards: ties count half; their advantages are zero, so none is signed
    const tie = robotSignal(run(group([true, false], [0.5, 0.5])));
    expect(tie.successRanked).toBe(0.5);
    expect(tie.wrongSign).toBeNull();
    // one success of three ranked above one failure and below the other: half the pairs
    expect(robotSignal(run(group([true, false, false], [0.5, 0.4, 0.6]))).successRanked).toBe(0.5);
  });

  it('leaves the anchors out, and counts one-outcome groups given an advantage beyond rounding', () => {
    const anchor = group([true, false], [0, 1], { anchor: true });
    const flatSignal = group([false, false], [0.2, 0.6]);
    const flatRounding = group([true, true], [0.3, 0.3], { advantages: [1e-12, -1e-12] });
    const s = robotSignal(run(anchor, flatSignal, flatRounding));
    expect(s).toEqual({ groups: 2, successRanked: null, wrongSign: null, flatGroups: 2, flatWithAdvantage: 1 });
  });
});
