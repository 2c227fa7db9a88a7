// The robot domain through the unchanged method core: rollouts of the tabletop, scored on 8 frames,
// give s; success gives y on the anchor group; src/wmrl's MethodState does the rest as for programs.
import { describe, expect, it } from 'vitest';
import { deriveSeed } from '../../../src/primitives/random.ts';
import { initialScene } from '../../../src/embodied/layout.ts';
import { methodInputs } from '../../../src/embodied/method-batch.ts';
import { progressLabeller } from '../../../src/embodied/progress-label.ts';
import { demonstrate } from '../../../src/embodied/rollout.ts';
import { scoreEpisode, type ScoredRollout } from '../../../src/embodied/scored-rollout.ts';
import { TRAIN_TASKS } from '../../../src/embodied/tasks.ts';
import { anchorPairsOf, MethodState, type MethodConfig } from '../../../src/wmrl/step.ts';

const B = 8;
const N = 4;
/** Noise levels of the n rollouts of a group: noisy experts stand in for a policy's samples. */
const NOISE = [0.3, 0.5, 0.7, 0.9];

/**
 * One step's groups: B training tasks, N rollouts each from one initial scene, each scored on its 8
 * frames by the expert's progress labels (the target a frozen progress model will learn).
 */
function robotGroups(step: number): ScoredRollout[][] {
  return Array.from({ length: B }, (_, k) => {
    const task = TRAIN_TASKS[(step * B + k) % TRAIN_TASKS.length];
    const start = initialScene(task, 'train', step * B + k);
    const label = progressLabeller(task, start);
    return NOISE.map((noise, i) => {
      const e = demonstrate(task, start, noise, deriveSeed(step, k, i));
      return scoreEpisode(e, label);
    });
  });
}

const config: MethodConfig = { rho: 1 / B, seed: 3, advantageMode: 'mean', debias: true, fusion: { mode: 'ivw' } };

function run(steps: number) {
  const method = new MethodState(config);
  const out = [];
  for (let t = 0; t < steps; t++) {
    const groups = robotGroups(t);
    const plan = method.plan(B);
    const { s, y } = methodInputs(groups, plan.isAnchor);
    out.push({ groups, plan, s, y, result: method.score(s, y) });
  }
  return { method, out };
}

describe('robot rollouts through the method core', () => {
  const { method, out } = run(6);

  it('passes dense rewards for every rollout and success on exactly the one anchor group a step', () => {
    for (const { groups, plan, s, y, result } of out) {
      expect(plan.anchors.length).toBe(1);
      expect(s.map((g) => g.length)).toEqual(groups.map((g) => g.length));
      y.forEach((g, k) => expect(g === null ? null : g).toEqual(plan.isAnchor[k] ? groups[k].map((r) => (r.success ? 1 : 0)) : null));
      // Rewards: y on the anchor group, the calibrated dense reward g(s) elsewhere.
      const a = plan.anchors[0];
      expect(result.rewards[a]).toEqual(y[a]);
      expect(result.coefficients.flat().every(Number.isFinite)).toBe(true);
      expect(anchorPairsOf(s, y).s).toEqual(s[a]);
    }
    expect(method.anchorsSoFar).toBe(6);
    expect(out[5].result.calibrationPairs).toBe(6 * N);
  });

  it('the dense reward carries the success signal, and the calibrator turns it into a success probability', () => {
    const all = out.flatMap((o) => o.groups.flat().map((r, j) => ({ s: o.s.flat()[j], y: r.success ? 1 : 0 })));
    const won = all.filter((r) => r.y === 1);
    const lost = all.filter((r) => r.y === 0);
    expect(won.length).toBeGreaterThan(10);
    expect(lost.length).toBeGreaterThan(10);
    const m = (xs: { s: number }[]) => xs.reduce((a, r) => a + r.s, 0) / xs.length;
    expect(m(won)).toBeGreaterThan(m(lost));
    // g maps [-1, 1] into [0, 1], non-decreasing: a probability of success, learned from the anchors.
    let prev = -Infinity;
    for (let v = -1; v <= 1.0001; v += 0.05) {
      const g = method.calibrate(v);
      expect(g).toBeGreaterThanOrEqual(0);
      expect(g).toBeLessThanOrEqual(1);
      expect(g).toBeGreaterThanOrEqual(prev);
      prev = g;
    }
    expect(method.calibrate(1)).toBeGreaterThan(method.calibrate(-1));
  });

  it('is deterministic: the same seeds give the same coefficients', () => {
    const again = run(2);
    expect(again.out.map((o) => o.result.coefficients)).toEqual(out.slice(0, 2).map((o) => o.result.coefficients));
  });

  it('refuses a plan that does not match the groups, and an empty group, with a message', () => {
    const groups = robotGroups(0);
    expect(() => methodInputs(groups, [true])).toThrow(/8 groups of rollouts but an anchor plan for 1/);
    expect(() => methodInputs([[], ...groups.slice(1)], new Array(8).fill(false))).toThrow(/group 0 has no rollouts/);
  });
});
