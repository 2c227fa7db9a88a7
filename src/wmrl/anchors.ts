// Anchor groups (method.md 3.2): a fraction rho of groups is executed for real. A deterministic
// accumulator fixes how many per step; a seeded draw fixes which.
//
// Count rule: after step t the cumulative anchor count is round(rho * G_t), G_t = cumulative groups,
// so this step gets round(rho * G_t) - round(rho * G_{t-1}) anchors (0 in some steps with small
// batches). Math.round rounds halves up.
// Selection rule: the anchors of a step are a uniform random subset of its groups, drawn with
// mulberry32(deriveSeed(seed, step)); a pure function of (seed, step, groups, count). Uniform selection
// that ignores the programs is what keeps the anchor stream (and the PPI rectifier) unbiased.

import { deriveSeed, mulberry32, sampleIndices } from '../primitives/random.ts';

/** Number of anchors for a step with `groups` groups, given the groups of all earlier steps. */
export function anchorCount(rho: number, groupsBefore: number, groups: number): number {
  const count = Math.round(rho * (groupsBefore + groups)) - Math.round(rho * groupsBefore);
  return Math.min(groups, Math.max(0, count));
}

/** Which of a step's groups are anchors: `count` distinct indices, ascending. */
export function chooseAnchorGroups(seed: number, step: number, groups: number, count: number): number[] {
  return sampleIndices(mulberry32(deriveSeed(seed, step)), groups, count);
}

/** The anchor choice for one step. */
export interface AnchorPlan {
  step: number;
  /** Indices of the anchor groups, ascending. */
  anchors: number[];
  /** isAnchor[g] for every group of the step. */
  isAnchor: boolean[];
}

/** Serializable state of the schedule, for checkpoints. */
export interface AnchorScheduleState {
  rho: number;
  seed: number;
  step: number;
  groupsSoFar: number;
  anchorsSoFar: number;
}

/** The deterministic anchor accumulator. Steps are numbered from 0. */
export class AnchorSchedule {
  private state: AnchorScheduleState;

  constructor(rho: number, seed: number) {
    if (!(rho >= 0 && rho <= 1)) throw new RangeError(`rho must lie in [0, 1], got ${rho}`);
    if (!Number.isInteger(seed)) throw new RangeError(`seed must be an integer, got ${seed}`);
    this.state = { rho, seed, step: 0, groupsSoFar: 0, anchorsSoFar: 0 };
  }

  static restore(state: AnchorScheduleState): AnchorSchedule {
    const s = new AnchorSchedule(state.rho, state.seed);
    s.state = { ...state };
    return s;
  }

  snapshot(): AnchorScheduleState {
    return { ...this.state };
  }

  get step(): number {
    return this.state.step;
  }
  get groupsSoFar(): number {
    return this.state.groupsSoFar;
  }
  get anchorsSoFar(): number {
    return this.state.anchorsSoFar;
  }

  /** Plans the next step of `groups` groups and advances the accumulator. */
  next(groups: number): AnchorPlan {
    if (!Number.isInteger(groups) || groups < 0) throw new RangeError(`groups must be a non-negative integer, got ${groups}`);
    const { rho, seed, step, groupsSoFar, anchorsSoFar } = this.state;
    const count = anchorCount(rho, groupsSoFar, groups);
    const anchors = chooseAnchorGroups(seed, step, groups, count);
    const isAnchor = new Array<boolean>(groups).fill(false);
    for (const a of anchors) isAnchor[a] = true;
    this.state = { rho, seed, step: step + 1, groupsSoFar: groupsSoFar + groups, anchorsSoFar: anchorsSoFar + count };
    return { step, anchors, isAnchor };
  }
}
