// A SYNTHETIC world model for the companion's figures: true scores y are drawn from a simple generator
// and the "world model" score s is a distorted, noisy function of y whose shape, noise and readability
// the reader controls. Nothing here is the project's trained world model; it exists so that every
// figure can run the real method code (src/wmrl) on inputs whose ground truth is known.

import { normal, type Rng } from '../../primitives/random.ts';

/** How the synthetic world model bends the true score before noise is added. */
export type BiasShape = 'none' | 'optimistic' | 'pessimistic' | 'compressed' | 'overconfident';

export const BIAS_SHAPES: readonly { value: BiasShape; label: string }[] = [
  { value: 'none', label: 'none (s ≈ y)' },
  { value: 'optimistic', label: 'optimistic (√y)' },
  { value: 'pessimistic', label: 'pessimistic (y²)' },
  { value: 'compressed', label: 'compressed (0.35 + 0.3 y)' },
  { value: 'overconfident', label: 'overconfident (S-curve)' },
];

export interface SyntheticWorldModel {
  shape: BiasShape;
  /** 0: no distortion, 1: the full shape; in between a blend with the identity. */
  strength: number;
  /** Standard deviation of the Gaussian noise added to s (before clipping to [0, 1]). */
  noise: number;
  /** 1: s follows y; 0: s follows an independent guess, i.e. the outcome is not readable from the code. */
  readability: number;
}

export function clamp01(v: number): number {
  return v < 0 ? 0 : v > 1 ? 1 : v;
}

function shapeOf(y: number, shape: BiasShape): number {
  switch (shape) {
    case 'none':
      return y;
    case 'optimistic':
      return Math.sqrt(y);
    case 'pessimistic':
      return y * y;
    case 'compressed':
      return 0.35 + 0.3 * y;
    case 'overconfident':
      return y < 0.5 ? 2 * y * y : 1 - 2 * (1 - y) * (1 - y);
  }
}

/** The noise-free distortion d(y): non-decreasing in y for every shape and strength in [0, 1]. */
export function distort(y: number, shape: BiasShape, strength: number): number {
  const t = clamp01(y);
  return (1 - strength) * t + strength * shapeOf(t, shape);
}

/**
 * The inverse of the distortion, d^-1(s), by bisection (d is monotone): the calibrator a noise-free,
 * fully readable world model would need. Clipped to the range of d.
 */
export function inverseDistort(s: number, shape: BiasShape, strength: number): number {
  let lo = 0;
  let hi = 1;
  if (s <= distort(0, shape, strength)) return 0;
  if (s >= distort(1, shape, strength)) return 1;
  for (let i = 0; i < 40; i++) {
    const mid = (lo + hi) / 2;
    if (distort(mid, shape, strength) < s) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** The synthetic world-model score of a program whose true score is y. */
export function worldModelScore(y: number, wm: SyntheticWorldModel, rng: Rng): number {
  // What the model says when it cannot read the outcome: an independent guess, distorted the same way.
  const guess = rng();
  const readable = wm.readability * y + (1 - wm.readability) * guess;
  return clamp01(distort(readable, wm.shape, wm.strength) + wm.noise * normal(rng));
}

/** Probability that a sampled program fails (crash, timeout, bad output): its true score is 0. */
export const FAILURE_RATE = 0.1;

/**
 * True scores of one group of n programs for one task: a task-level mean (some tasks are easier for
 * the policy), a per-program spread, and a share of failures scoring 0, as in the method (2.).
 */
export function sampleTrueScores(rng: Rng, n: number): number[] {
  const taskMean = 0.15 + 0.7 * rng();
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const failed = rng() < FAILURE_RATE;
    out.push(failed ? 0 : clamp01(taskMean + 0.18 * normal(rng)));
  }
  return out;
}

/**
 * A simulated stretch of training, common to the companion's simulations: `steps` steps of `groups`
 * groups of `groupSize` programs, a share rho of the groups anchors, one synthetic world model, seeded.
 */
export interface SimSetup {
  seed: number;
  steps: number;
  groups: number;
  groupSize: number;
  rho: number;
  wm: SyntheticWorldModel;
}

/** One group: true scores y and synthetic world-model scores s of the same programs. */
export function sampleGroup(rng: Rng, n: number, wm: SyntheticWorldModel): { y: number[]; s: number[] } {
  const y = sampleTrueScores(rng, n);
  const s = y.map((v) => worldModelScore(v, wm, rng));
  return { y, s };
}
