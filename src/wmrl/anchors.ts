// Anchor groups (method.md 3.2): a fraction rho of groups is executed for real. A deterministic
// accumulator fixes how many per step; a seeded draw fixes which.
//
// Count rule: after step t the cumulative anchor count is round(rho * G_t), G_t = cumulative groups,
// so this step gets round(rho * G_t) - round(rho * G_{t-1}) anchors (0 in some steps with small
// batches). Math.round rounds halves up.
// The authors' count rule (their library, wmrl/anchor.py), selectable: every step gets
// max(floor, round(fraction * groups)) anchors, rounding halves to even as Python's round() does, so
// a step never goes without ground truth (at B = 8 and fraction 0.10: one group a step, 12.5%).
// Selection rule: the anchors of a step are a uniform random subset of its groups, drawn with
// mulberry32(deriveSeed(seed, step)); a pure function of (seed, step, groups, count). Uniform selection
// that ignores the programs is what keeps the anchor stream (and the PPI rectifier) unbiased.

import { deriveSeed, mulberry32, sampleIndices } from '../primitives/random.ts';

/** Number of anchors for a step with `groups` groups, given the groups of all earlier steps. */
export function anchorCount(rho: number, groupsBefore: number, groups: number): number {
  const count = Math.round(rho * (groupsBefore + groups)) - Math.round(rho * groupsBefore);
  return Math.min(groups, Math.max(0, count));
}

/** The authors' per-step rule: a fraction of each step's groups with a floor. */
export interface PerStepAnchors {
  fraction: number;
  floor: number;
}

/** Python's round(): to the nearest integer, halves to the even one. */
export function roundHalfEven(x: number): number {
  const r = Math.round(x);
  return Math.abs(x % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

/** Anchors of one step under the per-step rule. */
export function perStepAnchorCount(rule: PerStepAnchors, groups: number): number {
  if (groups <= 0) return 0;
  return Math.min(groups, Math.max(rule.floor, roundHalfEven(rule.fraction * groups)));
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
  /** The per-step rule instead of the accumulator at rho (absent: the accumulator). */
  perStep?: PerStepAnchors;
}

/** The deterministic anchor accumulator. Steps are numbered from 0. */
export class AnchorSchedule {
  private state: AnchorScheduleState;

  constructor(rho: number, seed: number, perStep?: PerStepAnchors) {
    if (!(rho >= 0 && rho <= 1)) throw new RangeError(`rho must lie in [0, 1], got ${rho}`);
    if (!Number.isInteger(seed)) throw new RangeError(`seed must be an integer, got ${seed}`);
    if (perStep) {
      if (!(perStep.fraction >= 0 && perStep.fraction <= 1)) throw new RangeError(`anchor fraction must lie in [0, 1], got ${perStep.fraction}`);
      if (!(Number.isInteger(perStep.floor) && perStep.floor >= 0)) throw new RangeError(`anchor floor must be a non-negative integer, got ${perStep.floor}`);
    }
    this.state = { rho, seed, step: 0, groupsSoFar: 0, anchorsSoFar: 0, ...(perStep ? { perStep: { ...perStep } } : {}) };
  }

  static restore(state: AnchorScheduleState): AnchorSchedule {
    const s = new AnchorSchedule(state.rho, state.seed, state.perStep);
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
    const { rho, seed, step, groupsSoFar, anchorsSoFar, perStep } = this.state;
    const count = perStep ? perStepAnchorCount(perStep, groups) : anchorCount(rho, groupsSoFar, groups);
    const anchors = chooseAnchorGroups(seed, step, groups, count);
    const isAnchor = new Array<boolean>(groups).fill(false);
    for (const a of anchors) isAnchor[a] = true;
    this.state = { ...this.state, step: step + 1, groupsSoFar: groupsSoFar + groups, anchorsSoFar: anchorsSoFar + count };
    return { step, anchors, isAnchor };
  }
}
