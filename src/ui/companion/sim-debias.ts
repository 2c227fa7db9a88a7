// Section 3 of the companion: anchor pairs (s, y) from the synthetic world model accumulate as steps go
// by; the project's OnlineCalibrator fits them (PAVA, linear interpolation between block centres). For
// contrast the same PAVA blocks are also read as a step function, which is what the method avoids.

import { groupAdvantages, zeroSpreadFraction } from '../../wmrl/advantages.ts';
import { AnchorSchedule } from '../../wmrl/anchors.ts';
import { OnlineCalibrator, pava, poolTies } from '../../wmrl/isotonic.ts';
import { deriveSeed, mulberry32 } from '../../primitives/random.ts';
import { inverseDistort, sampleGroup, type SimSetup } from './sim-world-model.ts';

/** steps: the steps gone by; anchor pairs from all of them are in the fit. */
export type DebiasConfig = SimSetup;

export interface StepBlock {
  lo: number;
  hi: number;
  value: number;
}

/** The PAVA fit read as a step function: constant on each block, held from a block's start to the next. */
export interface StepFunction {
  blocks: StepBlock[];
  predict(s: number): number;
}

/** Isotonic regression of y on s as blocks (ties in s pooled first), using the project's `pava`. */
export function pavaStepFunction(s: readonly number[], y: readonly number[]): StepFunction {
  const { x: px, y: py, w: pw } = poolTies(s.map((_, i) => i), s, y);
  const blocks = px.length === 0 ? [] : pava(py, pw).map((b) => ({ lo: px[b.start], hi: px[b.end - 1], value: b.value }));
  return {
    blocks,
    predict(v: number): number {
      if (blocks.length === 0) return v;
      let k = 0;
      while (k + 1 < blocks.length && blocks[k + 1].lo <= v) k++;
      return blocks[k].value;
    },
  };
}

export interface DebiasResult {
  pairs: { s: number[]; y: number[] };
  anchorGroups: number;
  /** Block centres of the real calibrator (the interpolation knots). */
  knots: { x: number[]; y: number[] };
  stepBlocks: StepBlock[];
  /** Curves on a grid of s in [0, 1]: linear interpolation (the method), step function, ideal. */
  curves: { linear: [number, number][]; step: [number, number][]; ideal: [number, number][] };
  /** On fresh world-model groups: fraction with zero reward spread, per reward. */
  zeroSpread: { raw: number; linear: number; step: number; trueScore: number };
  /** On the same programs: fraction of differently scored pairs that get equal rewards. */
  tiedPairs: { raw: number; linear: number; step: number };
  /** On the same programs: mean |reward - y| per reward. */
  meanAbsError: { raw: number; linear: number; step: number };
  /** One fresh group, to show side by side (one the step function partly flattens, when there is one). */
  example: { y: number[]; s: number[]; linear: number[]; step: number[]; advLinear: number[]; advStep: number[] };
}

const FRESH_GROUPS = 200;

/**
 * Fraction of within-group pairs of programs with different true scores whose rewards are equal: the
 * pair's ranking is lost (a whole group of such ties is a zero-spread group, which has no gradient).
 */
export function tiedPairFraction(rewards: readonly (readonly number[])[], truth: readonly (readonly number[])[]): number {
  let tied = 0;
  let pairs = 0;
  rewards.forEach((g, k) => {
    for (let i = 0; i < g.length; i++) {
      for (let j = i + 1; j < g.length; j++) {
        if (truth[k][i] === truth[k][j]) continue;
        pairs++;
        if (g[i] === g[j]) tied++;
      }
    }
  });
  return pairs === 0 ? 0 : tied / pairs;
}
const GRID = 101;

/** Simulates `steps` steps of anchor pairs and fits the real OnlineCalibrator on them. */
export function simulateDebias(cfg: DebiasConfig): DebiasResult {
  const schedule = new AnchorSchedule(cfg.rho, cfg.seed);
  const calibrator = new OnlineCalibrator();
  const allS: number[] = [];
  const allY: number[] = [];
  for (let t = 0; t < cfg.steps; t++) {
    const plan = schedule.next(cfg.groups);
    const rng = mulberry32(deriveSeed(cfg.seed, t));
    for (let g = 0; g < cfg.groups; g++) {
      // Every group is drawn so the stream of programs does not depend on which groups are anchors.
      const { y, s } = sampleGroup(rng, cfg.groupSize, cfg.wm);
      if (!plan.isAnchor[g]) continue;
      calibrator.add(s, y, t);
      allS.push(...s);
      allY.push(...y);
    }
  }
  if (cfg.steps > 0) calibrator.refit(cfg.steps - 1);
  const stepFn = pavaStepFunction(allS, allY);

  const linear: [number, number][] = [];
  const step: [number, number][] = [];
  const ideal: [number, number][] = [];
  for (let i = 0; i < GRID; i++) {
    const x = i / (GRID - 1);
    linear.push([x, calibrator.predict(x)]);
    step.push([x, stepFn.predict(x)]);
    ideal.push([x, inverseDistort(x, cfg.wm.shape, cfg.wm.strength)]);
  }

  // Fresh world-model groups scored three ways: raw s, linear g(s), step g(s).
  const rng = mulberry32(deriveSeed(cfg.seed, 0x5eed, cfg.steps));
  const raw: number[][] = [];
  const lin: number[][] = [];
  const stp: number[][] = [];
  const truth: number[][] = [];
  const err = { raw: 0, linear: 0, step: 0 };
  let count = 0;
  for (let g = 0; g < FRESH_GROUPS; g++) {
    const { y, s } = sampleGroup(rng, cfg.groupSize, cfg.wm);
    const l = s.map((v) => calibrator.predict(v));
    const st = s.map((v) => stepFn.predict(v));
    raw.push(s);
    lin.push(l);
    stp.push(st);
    truth.push(y);
    for (let i = 0; i < y.length; i++) {
      err.raw += Math.abs(s[i] - y[i]);
      err.linear += Math.abs(l[i] - y[i]);
      err.step += Math.abs(st[i] - y[i]);
      count++;
    }
  }
  const { x: kx, y: ky } = calibrator.knots;
  // The example: the first fresh group in which the step function ties programs that interpolation
  // tells apart, when there is one (that is the point the figure makes); otherwise the first group.
  let ex = 0;
  for (let g = 0; g < FRESH_GROUPS; g++) {
    if (tiedPairFraction([stp[g]], [truth[g]]) > tiedPairFraction([lin[g]], [truth[g]])) {
      ex = g;
      break;
    }
  }
  return {
    pairs: { s: allS, y: allY },
    anchorGroups: schedule.anchorsSoFar,
    knots: { x: [...kx], y: [...ky] },
    stepBlocks: stepFn.blocks,
    curves: { linear, step, ideal },
    zeroSpread: {
      raw: zeroSpreadFraction(raw),
      linear: zeroSpreadFraction(lin),
      step: zeroSpreadFraction(stp),
      trueScore: zeroSpreadFraction(truth),
    },
    tiedPairs: { raw: tiedPairFraction(raw, truth), linear: tiedPairFraction(lin, truth), step: tiedPairFraction(stp, truth) },
    meanAbsError: { raw: err.raw / count, linear: err.linear / count, step: err.step / count },
    example: {
      y: truth[ex],
      s: raw[ex],
      linear: lin[ex],
      step: stp[ex],
      advLinear: groupAdvantages(lin[ex], 'mean'),
      advStep: groupAdvantages(stp[ex], 'mean'),
    },
  };
}
