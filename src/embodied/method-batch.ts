// How one step's rollouts feed the method core (src/wmrl's MethodState.score / scoreStep), which is
// the same for both domains and never sees a trajectory:
//
//   s  every rollout's dense reward from its progress scores (shaping.ts): the world-model score
//   y  every rollout's success as 1 or 0, on the step's anchor groups only; null on the others
//
// In simulation success is known for every rollout; the method is given it only on anchor groups,
// which stands for the setting the paper targets, where a real outcome costs a run or a check. The
// rest is the method's own: the isotonic calibrator learns g(s) = P(success | s) from the anchors'
// (s, y) pairs, so 'delta' scores in [-1, 1] need no rescaling, and fusion weighs the two streams.

import { denseReward, type DenseRewardMode } from './shaping.ts';
import type { ScoredRollout } from './scored-rollout.ts';

export interface MethodInputs {
  s: number[][];
  y: (number[] | null)[];
}

export function methodInputs(
  groups: readonly (readonly ScoredRollout[])[],
  isAnchor: readonly boolean[],
  mode: DenseRewardMode = 'delta',
): MethodInputs {
  if (groups.length !== isAnchor.length) throw new RangeError(`${groups.length} groups of rollouts but an anchor plan for ${isAnchor.length}`);
  groups.forEach((g, k) => {
    if (g.length === 0) throw new RangeError(`group ${k} has no rollouts`);
  });
  return {
    s: groups.map((g) => g.map((r) => denseReward(r.progress, mode))),
    y: groups.map((g, k) => (isAnchor[k] ? g.map((r) => (r.success ? 1 : 0)) : null)),
  };
}
